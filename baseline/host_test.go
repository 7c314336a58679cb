package baseline

import (
	"math"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// TestHostSignalsReadFromTheirOwnReading: a frame that carries the host
// reading of the frame before (the same one, or a replay's copy of it)
// says nothing of the host; a new reading, or the first, does. The
// server's own signals read either way.
func TestHostSignalsReadFromTheirOwnReading(t *testing.T) {
	s := newSim(3, time.Second)
	s.next() // the first frame has no rates
	prev, f := s.next(), s.next()
	copied := *prev.Snapshot.Host
	hostSignals := []string{"host CPU busy %", "CPU outside mysqld %", "busiest processes outside mysqld %",
		"run queue", "memory available", "TCP retransmits/s", "disk sda util %", "net eth0 tx B/s"}
	for _, c := range []struct {
		name     string
		prevHost *snapshot.Host
		frame    *snapshot.Frame
		wantHost bool
	}{
		{"a new reading", prev.Snapshot.Host, f, true},
		{"the first reading", nil, f, true},
		{"the reading before, carried", prev.Snapshot.Host, carrying(f, prev.Snapshot.Host, prev.Rates.Host), false},
		{"a copy of the reading before", prev.Snapshot.Host, carrying(f, &copied, prev.Rates.Host), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := New(DefaultConfig())
			tr.prevHost = c.prevHost
			vals := tr.sample(c.frame, nil, 1)
			read := func(name string) bool {
				i, ok := tr.byName[name]
				return ok && !math.IsNaN(vals[i])
			}
			for _, name := range hostSignals {
				if read(name) != c.wantHost {
					t.Errorf("%s read: %v, want %v", name, read(name), c.wantHost)
				}
			}
			if !read("queries/s") {
				t.Error("queries/s not read")
			}
		})
	}
}

// carrying is f holding host (and its rates) instead of its own reading.
func carrying(f *snapshot.Frame, host *snapshot.Host, rates *snapshot.HostRates) *snapshot.Frame {
	snap, r := *f.Snapshot, *f.Rates
	snap.Host, r.Host = host, rates
	return &snapshot.Frame{Seq: f.Seq, Snapshot: &snap, Rates: &r, Load: f.Load}
}

// TestCarriedReadingWeighsAsAMissedOne: a capture's loop slows when the host
// is busy, so the reading after each busy one comes a second late and the
// busy one is carried into the second between. The normal learnt from it is
// the one a live monitor whose host read missed those seconds learns: the
// bursts count once, and do not widen the run queue's envelope.
func TestCarriedReadingWeighsAsAMissedOne(t *testing.T) {
	normals := map[bool]*Tracker{}
	for _, carry := range []bool{true, false} {
		tr, s := New(DefaultConfig()), newSim(5, time.Second)
		s.fault, s.faultAt = func(smp *sample) {
			if s.now.Unix()%30 < 4 {
				smp.runq += 8
				smp.other = 1.5
			}
		}, epoch
		slowAfterBusy(tr, s, 20*time.Minute, carry)
		normals[carry] = tr
	}
	for _, name := range []string{"run queue", "host CPU busy %", "CPU outside mysqld %"} {
		c, m := normals[true].sigs[normals[true].byName[name]], normals[false].sigs[normals[false].byName[name]]
		if c.n == 0 || c.hi <= c.med {
			t.Fatalf("%s: no normal with bursts learnt (n %d, median %.1f, highs %.1f)", name, c.n, c.med, c.hi)
		}
		if c.med != m.med || c.spread != m.spread || c.hi != m.hi || c.lo != m.lo {
			t.Errorf("%s: carried: median %.2f spread %.2f highs %.2f lows %.2f; missed: %.2f %.2f %.2f %.2f",
				name, c.med, c.spread, c.hi, c.lo, m.med, m.spread, m.hi, m.lo)
		}
	}
}

// slowAfterBusy feeds tr d of the sim's frames; the frame after each busy
// reading (a run queue of 8 or more) carries that reading, or, when not
// carry, has no host figures.
func slowAfterBusy(tr *Tracker, s *sim, d time.Duration, carry bool) {
	end := s.now.Add(d)
	var busy *snapshot.Frame
	for s.now.Before(end) {
		f := s.next()
		switch {
		case busy != nil && carry:
			f, busy = carrying(f, busy.Snapshot.Host, busy.Rates.Host), nil
		case busy != nil:
			f, busy = carrying(f, nil, nil), nil
		case f.Rates != nil && f.Snapshot.Host.ProcsRunning >= 8:
			busy = f
		}
		tr.Observe(f, s.routine)
	}
}

// TestDepartureSpansFramesWithoutAReading: a departure is dated from the
// oldest frame of the short window out the same way; a frame without a
// reading (a carried host reading, a missed read) neither ends it nor
// dates it.
func TestDepartureSpansFramesWithoutAReading(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name string
		vals []float64 // one a second, the last the frame judged
		want float64   // the departure's start, in seconds
	}{
		{"out since the second frame", []float64{2, 9, 9, 9}, 0.5},
		{"a frame without a reading between", []float64{2, 9, nan, 9}, 0.5},
		{"the out readings all carried", []float64{2, 9, nan, nan, 9}, 0.5},
		{"back in band before the gap", []float64{9, 2, nan, 9}, 2.5},
		{"the frame judged without a reading", []float64{2, 9, 9, nan}, 0.5},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := newSignal(spec{name: "run queue", kind: kRunQueue, dir: up, floor: 2})
			g.n, g.med, g.spread, g.hi = 30, 2, 0.5, 3
			tr := &Tracker{sigs: []*signal{g}}
			for k, v := range c.vals {
				tr.recent = append(tr.recent, recentFrame{at: float64(k), span: 1, vals: []float64{v}})
			}
			if got := tr.departure(0, g, up); got != c.want {
				t.Errorf("departure from %.1f s, want %.1f s", got, c.want)
			}
		})
	}
}

// A stall reading a capture carried (its part marked stale) is not read
// again: the held rates repeat the reading's own, which would count twice.
func TestStallSignalsReadFromTheirOwnReading(t *testing.T) {
	s := newSim(3, time.Second)
	s.pressure = &snapshot.Pressure{}
	s.next()
	s.next()
	f := s.next()
	if f.Rates == nil || f.Rates.Pressure == nil {
		t.Fatal("the simulated frame has no stall rates")
	}
	carried := *f.Snapshot
	carried.Collectors = map[snapshot.CollectorName]snapshot.CollectorState{
		snapshot.CollectorPressure: {Stale: true, Error: "carried from 04:00:01"}}
	for _, c := range []struct {
		name  string
		frame *snapshot.Frame
		want  bool
	}{
		{"a new reading", f, true},
		{"a reading carried", &snapshot.Frame{Seq: f.Seq, Snapshot: &carried, Rates: f.Rates, Load: f.Load}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := New(DefaultConfig())
			vals := tr.sample(c.frame, nil, 1)
			i, ok := tr.byName["CPU stall %"]
			if got := ok && !math.IsNaN(vals[i]); got != c.want {
				t.Errorf("CPU stall %% read: %v, want %v", got, c.want)
			}
		})
	}
}

// TestDiskWritersKernelCPUIsTheDisks: a writer as fast as the busy-normal
// family's dd (800 MB/s) costs the kernel CPU for its writes and their
// writeback: seconds after the disk is named, the CPU outside mysqld climbs
// (15 % to 52 % of the host there) with no process measured burning it. That
// CPU is the disk writer's cost, not a hog of its own: the disk stays the
// ROOT CAUSE through the episode's end.
func TestDiskWritersKernelCPUIsTheDisks(t *testing.T) {
	for _, step := range []time.Duration{time.Second, 2 * time.Second} {
		t.Run(step.String(), func(t *testing.T) {
			tr, s := New(DefaultConfig()), newSim(41, step)
			noOnset(t, tr, s, 20*time.Minute, "in the normal")
			began := s.now.Add(time.Nanosecond)
			kernelFrom := began.Add(8 * time.Second)
			s.fault, s.faultAt = func(smp *sample) {
				smp.util, smp.await, smp.writeB = 1, smp.await*6, smp.writeB+800e6
				smp.iowait, smp.blocked = 0.6, smp.blocked+4
				if !s.now.Before(kernelFrom) {
					smp.other += 0.9
					smp.stallCPU += 0.2
					smp.runq += 3
				}
			}, began
			namedAndKept(t, tr, s, began, 60*time.Second, snapshot.CauseDisk)
		})
	}
}
