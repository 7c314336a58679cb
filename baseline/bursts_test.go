package baseline

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// burstyNormal is a busy server whose normal has bursts: every minute a
// report query runs for a few seconds (rows read and threads running jump,
// its statement takes a share of the sessions), and the lock waits pile up
// for a moment now and then. They are how this server runs.
func burstyNormal(s *sim) func(smp *sample) {
	return func(smp *sample) {
		sec := s.now.Unix()
		if sec%60 < 5 {
			smp.rates["Innodb_rows_read"] += 300000
			smp.rates["Handler_read_rnd_next"] += 300000
			smp.gauges["Threads_running"] *= 1.5
			smp.mysqld += 0.3
			smp.procs = append(smp.procs, procSpec{n: 15, user: "report", host: "10.0.0.9", state: "Sending data",
				query: "SELECT sum(k) FROM sbtest1 GROUP BY c"})
		}
		if sec%97 < 4 {
			smp.rates["Innodb_row_lock_time"] *= 4
			smp.gauges["Innodb_row_lock_current_waits"] *= 1.8
		}
	}
}

// TestBurstyNormalHasNoOnset: bursts that recur through the baseline are
// part of the normal, at 1 s and 5 s captures.
func TestBurstyNormalHasNoOnset(t *testing.T) {
	for _, step := range []time.Duration{time.Second, 5 * time.Second} {
		tr, s := New(DefaultConfig()), newSim(9, step)
		s.fault, s.faultAt = burstyNormal(s), epoch
		var last time.Time
		run(tr, s, 60*time.Minute, func(f *snapshot.Frame) {
			if len(f.Onsets) > 0 && !f.Onsets[0].At.Equal(last) {
				last = f.Onsets[0].At
				t.Errorf("%s: onset on a bursty normal at %s: %s %v", step, f.Time().Sub(epoch), f.Onsets[0].Title,
					f.Onsets[0].Signals)
			}
		})
	}
}
