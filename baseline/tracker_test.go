package baseline

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// run feeds the tracker d of frames from the sim; it returns the frames.
func run(t *Tracker, s *sim, d time.Duration, each func(f *snapshot.Frame)) {
	end := s.now.Add(d)
	for s.now.Before(end) {
		f := s.next()
		t.Observe(f, s.routine)
		if each != nil {
			each(f)
		}
	}
}

// firstOnset runs the sim for d and returns the first onset a frame
// showed, and that frame's time (nil if none did).
func firstOnset(tr *Tracker, s *sim, d time.Duration) (*snapshot.Onset, time.Time) {
	var named *snapshot.Onset
	var at time.Time
	run(tr, s, d, func(f *snapshot.Frame) {
		if named == nil && len(f.Onsets) > 0 {
			named, at = &f.Onsets[0], f.Time()
		}
	})
	return named, at
}

// noOnset runs the sim for d and fails t at the first onset, saying what
// ran meanwhile.
func noOnset(t *testing.T, tr *Tracker, s *sim, d time.Duration, during string) {
	t.Helper()
	run(tr, s, d, func(f *snapshot.Frame) {
		if len(f.Onsets) > 0 {
			t.Fatalf("onset %s at %s: %s (%+v)", during, f.Time().Sub(epoch), f.Onsets[0].Title, f.Onsets[0].Signals)
		}
	})
}

// TestBusyNormalHasNoOnset: a busy server with its usual noise, 40 minutes,
// at each capture interval: no onset, and the baseline warms up in time.
func TestBusyNormalHasNoOnset(t *testing.T) {
	for _, step := range []time.Duration{time.Second, 5 * time.Second, 10 * time.Second} {
		t.Run(step.String(), func(t *testing.T) {
			for seed := range uint64(3) {
				tr, s := New(DefaultConfig()), newSim(seed+1, step)
				var last *snapshot.Frame
				run(tr, s, 40*time.Minute, func(f *snapshot.Frame) {
					last = f
					if len(f.Onsets) > 0 {
						t.Fatalf("seed %d: onset on a busy normal at %s: %+v", seed, f.Time().Sub(epoch), f.Onsets[0])
					}
				})
				if !last.Normal.Ready || last.Normal.HistoryMinutes < 29 {
					t.Errorf("seed %d: baseline %+v after 40 min", seed, last.Normal)
				}
			}
		})
	}
}

// TestEachFaultNamedFirst: after 20 minutes of busy normal, each fault is
// the first cause named within 10 s of its start, dated within 5 s, at 1 s,
// 5 s and 10 s captures.
func TestEachFaultNamedFirst(t *testing.T) {
	for _, step := range []time.Duration{time.Second, 5 * time.Second, 10 * time.Second} {
		for _, fl := range faults {
			t.Run(step.String()+"/"+fl.name, func(t *testing.T) {
				tr, s := New(DefaultConfig()), newSim(11, step)
				noOnset(t, tr, s, 20*time.Minute, "before the fault")
				s.fault, s.faultAt = fl.apply, s.now.Add(time.Nanosecond)
				named, namedAt := firstOnset(tr, s, 60*time.Second)
				if named == nil {
					t.Fatalf("no onset in 60 s of %s", fl.name)
				}
				if named.Cause != fl.cause {
					t.Errorf("first cause %q (%s), want %q; signals %+v", named.Cause, named.Title, fl.cause, named.Signals)
				}
				if d := namedAt.Sub(s.faultAt); d > 10*time.Second+step/4 {
					t.Errorf("named %s after the fault started, want within 10 s", d)
				}
				if d := named.At.Sub(s.faultAt); d < -5*time.Second || d > 5*time.Second {
					t.Errorf("onset dated %s from the fault's start, want within 5 s", d)
				}
			})
		}
	}
}
