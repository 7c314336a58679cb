package infer

import (
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// LoadTotals adds samples' load up over a window, weighting each by the
// seconds it stands for, so averages are average active sessions whatever
// the interval. The report, the load view and the findings' evidence all
// read the load through it.
type LoadTotals struct {
	// Seconds is the time the added samples stand for.
	Seconds float64
	// Samples is how many were added.
	Samples int
	// SessionSeconds per class.
	SessionSeconds snapshot.ClassLoad
	// Peak is the most active sessions in one sample, and when.
	Peak   int
	PeakAt time.Time
	// CPUs is the latest known CPU count.
	CPUs   int
	slices map[sliceKey]*snapshot.ClassLoad
}

// Add takes one sample; nil (load unknown) is skipped.
func (t *LoadTotals) Add(l *snapshot.Load) {
	if l == nil {
		return
	}
	w := l.Interval
	if w <= 0 {
		w = 1
	}
	t.Seconds += w
	t.Samples++
	t.SessionSeconds.Add(&l.Classes, w)
	if l.Active > t.Peak || t.PeakAt.IsZero() {
		t.Peak, t.PeakAt = l.Active, l.At
	}
	if l.CPUs > 0 {
		t.CPUs = l.CPUs
	}
	if t.slices == nil {
		t.slices = map[sliceKey]*snapshot.ClassLoad{}
	}
	for i := range l.Slices {
		s := &l.Slices[i]
		k := sliceKey{s.By, s.Name}
		acc := t.slices[k]
		if acc == nil {
			acc = new(snapshot.ClassLoad)
			t.slices[k] = acc
		}
		acc.Add(&s.Classes, w)
	}
}

// Average is the average active sessions per class.
func (t *LoadTotals) Average() snapshot.ClassLoad {
	var a snapshot.ClassLoad
	if t.Seconds > 0 {
		a.Add(&t.SessionSeconds, 1/t.Seconds)
	}
	return a
}

// Share is class c's part of the load, 0..1.
func (t *LoadTotals) Share(c snapshot.WaitClass) float64 {
	total := t.SessionSeconds.Total()
	if total <= 0 {
		return 0
	}
	return t.SessionSeconds[c] / total
}

// Top returns the n biggest slices of each dimension as average active
// sessions, in loadDims order; only slices with part of their load in one
// of classes when classes are given.
func (t *LoadTotals) Top(n int, classes ...snapshot.WaitClass) []snapshot.LoadSlice {
	if t.Seconds <= 0 {
		return nil
	}
	var all []snapshot.LoadSlice
	for k, acc := range t.slices {
		s := snapshot.LoadSlice{By: k.by, Name: k.name}
		s.Classes.Add(acc, 1/t.Seconds)
		if len(classes) > 0 {
			s.Classes = only(s.Classes, classes)
			if s.Sessions() <= 0 {
				continue
			}
		}
		all = append(all, s)
	}
	sortSlices(all)
	out := all[:0]
	count := map[snapshot.LoadDim]int{}
	for _, s := range all {
		if count[s.By] < n {
			count[s.By]++
			out = append(out, s)
		}
	}
	return out
}

// only keeps the given classes of l.
func only(l snapshot.ClassLoad, classes []snapshot.WaitClass) snapshot.ClassLoad {
	var out snapshot.ClassLoad
	for _, c := range classes {
		out[c] = l[c]
	}
	return out
}
