package baseline

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// TestCatchUpAfterAConvoyIsNotItsRoot: when a lock convoy ends, the
// clients catch up on the requests they queued (three times the usual
// rate for a while), with the sessions still many. That spike is the
// convoy's aftermath: it is dated from its own departure, not from the
// threads running the convoy raised, so the convoy stays first.
func TestCatchUpAfterAConvoyIsNotItsRoot(t *testing.T) {
	for _, step := range []time.Duration{time.Second, 2 * time.Second} {
		t.Run(step.String(), func(t *testing.T) {
			tr, s := warm(51, step)
			convoy := s.now.Add(time.Nanosecond)
			catchUp := convoy.Add(30 * time.Second)
			s.fault, s.faultAt = func(smp *sample) {
				if s.now.Before(catchUp) {
					lockConvoy(smp)
					smp.procs[1].n += 40
					return
				}
				for _, k := range []string{"Questions", "Com_insert", "Com_update", "Com_delete", "Com_commit",
					"Innodb_rows_read", "Bytes_sent", "Bytes_received"} {
					smp.rates[k] *= 3
				}
				smp.gauges["Threads_running"] += 30
				smp.mysqld *= 1.5
			}, convoy
			var last *snapshot.Frame
			run(tr, s, 50*time.Second, func(f *snapshot.Frame) { last = f })
			if len(last.Onsets) == 0 {
				t.Fatal("no onset after the convoy and its catch-up")
			}
			if o := last.Onsets[0]; o.Cause != snapshot.CauseLocks {
				t.Errorf("first cause %q (%s) dated %s after the convoy began, want %q", o.Cause, o.Title,
					o.At.Sub(convoy).Round(time.Second), snapshot.CauseLocks)
			}
		})
	}
}

// TestANewCauseAfterTheLastSettledIsItsOwn: a FLUSH storm 20 s after a
// convoy's every sign is gone (inside the 30 s an episode waits before it
// closes) is news of its own, named first, not a third cause of the
// convoy's episode.
func TestANewCauseAfterTheLastSettledIsItsOwn(t *testing.T) {
	for _, step := range []time.Duration{time.Second, 2 * time.Second} {
		t.Run(step.String(), func(t *testing.T) {
			tr, s := warm(53, step)
			convoy := s.now.Add(time.Nanosecond)
			settled := convoy.Add(30 * time.Second)
			flush := settled.Add(20 * time.Second)
			s.fault, s.faultAt = func(smp *sample) {
				switch {
				case s.now.Before(settled):
					lockConvoy(smp)
				case !s.now.Before(flush):
					smp.rates["Com_flush"] = 5
					smp.rates["Opened_tables"] = 300
				}
			}, convoy
			var during, last *snapshot.Frame
			run(tr, s, 25*time.Second, func(f *snapshot.Frame) { during = f })
			run(tr, s, 45*time.Second, func(f *snapshot.Frame) { last = f })
			if len(during.Onsets) == 0 || during.Onsets[0].Cause != snapshot.CauseLocks {
				t.Fatalf("the convoy is not named first: %v", during.Onsets)
			}
			if len(last.Onsets) == 0 || last.Onsets[0].Cause != snapshot.CauseFlush {
				t.Fatalf("the flush storm is not named first: %v", last.Onsets)
			}
			if o := last.Onsets[0]; o.At.Before(flush.Add(-5 * time.Second)) {
				t.Errorf("the flush storm dated %s, before it began at %s", o.At.Format(time.TimeOnly), flush.Format(time.TimeOnly))
			}
		})
	}
}
