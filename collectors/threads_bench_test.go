package collectors

import (
	"os"
	"strconv"
	"testing"
)

// BenchmarkReadTask is the cost of one thread's reading (stat and io), the
// per-busy-connection cost of a tick: at 5,000 busy connections a tick
// makes 5,000 of these.
func BenchmarkReadTask(b *testing.B) {
	pid := os.Getpid()
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil || len(ents) == 0 {
		b.Skip("no /proc/self/task")
	}
	tid, _ := strconv.ParseInt(ents[len(ents)-1].Name(), 10, 64)
	ts := &ThreadStats{Root: "/proc", pid: pid}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ts.readTask(tid); err != nil {
			b.Fatal(err)
		}
	}
}
