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
		smp.stallCPU = 0.15 * s.noise(0.3)
		if s.now.Unix()%30 < 4 {
			smp.other, smp.runq, smp.stallCPU = 2-smp.mysqld, smp.runq+6, 0.6*s.noise(0.2)
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

// TestCPUHogSeenByTheStallClock: a hog whose run queue stays within the
// normal's (pt-stalk's own loops made the capture's run queue that noisy)
// is named first within 10 s where the source reads the kernel's stall
// clock: tasks waiting for a CPU most of the time, where they waited a
// sixth of it, corroborate the two processes holding the CPUs. Without the
// clock, the processes alone open nothing.
func TestCPUHogSeenByTheStallClock(t *testing.T) {
	for _, withClock := range []bool{true, false} {
		tr, s := New(DefaultConfig()), newSim(21, 2*time.Second)
		if withClock {
			s.pressure = &snapshot.Pressure{}
		}
		normal := spreadOthers(s)
		s.fault, s.faultAt = normal, epoch
		run(tr, s, 20*time.Minute, func(f *snapshot.Frame) {
			if len(f.Onsets) > 0 {
				t.Fatalf("clock %v: onset in the normal at %s: %s", withClock, f.Time().Sub(epoch), f.Onsets[0].Title)
			}
		})
		began := s.now.Add(time.Nanosecond)
		s.fault, s.faultAt = func(smp *sample) {
			normal(smp)
			smp.other, smp.stallCPU = 2-smp.mysqld, 0.8*s.noise(0.1)
			smp.busiest = append([]snapshot.ProcessUse{{PID: 4242, Name: "sh", CPUs: 0.45},
				{PID: 4243, Name: "sh", CPUs: 0.4}}, smp.busiest[:3]...)
		}, began
		if withClock {
			namedFirst(t, tr, s, began, snapshot.CauseCPUOutside)
			continue
		}
		run(tr, s, 10*time.Second, func(f *snapshot.Frame) {
			if len(f.Onsets) > 0 {
				t.Errorf("without the stall clock, named from the processes alone: %s", f.Onsets[0].Title)
			}
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
