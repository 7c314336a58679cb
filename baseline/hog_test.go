package baseline

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// spreadOthers is a host whose CPUs other work keeps busy, spread over
// many small processes (collectors, agents, the load generator), with
// bursts every half minute that saturate the CPUs for a few seconds: the
// busy-normal family's first normal, with pt-stalk running beside it.
func spreadOthers(s *sim) func(smp *sample) {
	return func(smp *sample) {
		smp.mysqld = 0.3 * s.noise(0.1)
		smp.other = 1.1 * s.noise(0.15)
		if s.now.Unix()%30 < 4 {
			smp.other, smp.runq = 2-smp.mysqld, smp.runq+6
		}
		for i := range 8 {
			smp.busiest = append(smp.busiest, snapshot.ProcessUse{PID: 500 + i, Name: "collector",
				CPUs: smp.other / 10})
		}
	}
}

// TestCPUHogOnAHostAlreadyBusy: a hog that can only take what was idle
// moves the CPU outside mysqld no further than the normal's bursts do, but
// two processes now hold most of it: it is named first within 10 s.
func TestCPUHogOnAHostAlreadyBusy(t *testing.T) {
	for _, step := range []time.Duration{time.Second, 2 * time.Second, 5 * time.Second} {
		t.Run(step.String(), func(t *testing.T) {
			tr, s := New(DefaultConfig()), newSim(21, step)
			normal := spreadOthers(s)
			s.fault, s.faultAt = normal, epoch
			run(tr, s, 20*time.Minute, func(f *snapshot.Frame) {
				if len(f.Onsets) > 0 {
					t.Fatalf("onset in the normal at %s: %s", f.Time().Sub(epoch), f.Onsets[0].Title)
				}
			})
			began := s.now.Add(time.Nanosecond)
			s.fault, s.faultAt = func(smp *sample) {
				normal(smp)
				smp.other, smp.runq = 2-smp.mysqld, smp.runq+8
				smp.busiest = append([]snapshot.ProcessUse{{PID: 4242, Name: "sh", CPUs: 0.45},
					{PID: 4243, Name: "sh", CPUs: 0.4}}, smp.busiest[:3]...)
			}, began
			namedFirst(t, tr, s, began, snapshot.CauseCPUOutside)
		})
	}
}

// namedFirst runs the sim for a minute from the fault's start and fails t
// unless the first onset shown names cause within 10 s.
func namedFirst(t *testing.T, tr *Tracker, s *sim, began time.Time, cause string) {
	t.Helper()
	var named *snapshot.Onset
	var at time.Time
	run(tr, s, time.Minute, func(f *snapshot.Frame) {
		if named == nil && len(f.Onsets) > 0 {
			named, at = &f.Onsets[0], f.Time()
		}
	})
	switch {
	case named == nil:
		t.Fatal("no onset in a minute of the fault")
	case named.Cause != cause:
		t.Errorf("first cause %q (%s), want %q", named.Cause, named.Title, cause)
	case at.Sub(began) > 10*time.Second+s.step/4:
		t.Errorf("named after %s, want within 10 s", at.Sub(began))
	}
}
