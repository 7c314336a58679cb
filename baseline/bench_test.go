package baseline

import (
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/mytop-go/mytop-go/snapshot"
)

// BenchmarkObserve is the baseline's cost per frame on a busy server with
// 1,000 connections (65 running), 1 s frames, after the warm-up: what the
// dashboard pays on top of the rules each tick. The frames are made before
// the timer runs (their load is the pipeline's cost, not the baseline's).
func BenchmarkObserve(b *testing.B) {
	s := newSim(1, time.Second)
	s.idle = 1000
	const n = 600
	frames := make([]*snapshot.Frame, n)
	for i := range frames {
		f := s.next()
		f.Snapshot.Processlist = nil // the baseline reads the load, not the list
		delete(f.Snapshot.Status, "Uptime")
		frames[i] = f
	}
	tr := New(DefaultConfig())
	feed := func(k int) {
		src := frames[k%n]
		snap := *src.Snapshot
		snap.Time = src.Snapshot.Time.Add(time.Duration(k/n*n) * time.Second)
		f := *src
		f.Snapshot, f.Findings = &snap, nil
		tr.Observe(&f, nil)
	}
	for k := range 2 * n {
		feed(k)
	}
	if !tr.ready {
		b.Fatal("the baseline must be warm before timing")
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for k := range b.N {
		feed(2*n + k)
	}
	// The machine is shared: the process's own CPU time per frame says
	// what the baseline costs when other work stretches the wall time.
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(tr.sigs))*float64(unsafe.Sizeof(signal{})), "ring-bytes")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
