package collectors

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
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
	ts := &threadStats{Root: "/proc", pid: pid}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ts.readTask(tid); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkThreadsTick5000 is the /proc side of one threads tick at 5,000
// connections, over a fake procfs tree in a temp dir (so the machine's own
// load and real procfs do not enter it): map applied to the processlist,
// the busy connections', the background threads' and the process's
// counters read. "idle" is bench/compare.sh's case (5,000 Sleep, the
// workload's 4 busy); "busy" is every connection running a statement.
func BenchmarkThreadsTick5000(b *testing.B) {
	const conns, background, pid = 5000, 40, 30
	f := newFakeProc(b)
	f.process(pid, "mariadbd")
	f.task(pid, 0, "mariadbd", 900, 1<<30)
	tm := threadMap{conns: map[int64]connThread{}, tids: map[int64]bool{}, names: map[int64]string{}}
	for i := range background {
		f.task(pid, int64(pid+i), "ib_io_rd-"+strconv.Itoa(i), uint64(i), 0)
	}
	ps := make([]snapshot.Process, conns)
	for i := range conns {
		tid := int64(1000 + i)
		f.task(pid, tid, "mariadbd", uint64(i), uint64(i)<<12)
		tm.addConn(int64(i+1), tid, 70000)
		ps[i] = snapshot.Process{ID: int64(i + 1), Command: "Sleep", TimeMS: 60_000}
	}
	for _, mode := range []struct {
		name string
		busy int
	}{{"idle", 4}, {"busy", conns}} {
		b.Run(mode.name, func(b *testing.B) {
			for i := range ps {
				ps[i].Command, ps[i].TimeMS = "Sleep", 60_000
				if i < mode.busy {
					ps[i].Command, ps[i].TimeMS = "Query", 0
				}
			}
			ts := &threadStats{Root: f.root, interval: time.Second, pid: pid, tmap: tm}
			ts.listBackground()
			s := &snapshot.Snapshot{Processlist: ps}
			b.ReportAllocs()
			for b.Loop() {
				ts.tmap.apply(s.Processlist)
				proc, err := ts.readTask(0)
				if err != nil {
					b.Fatal(err)
				}
				s.Threads = &snapshot.Threads{PID: pid, Process: proc}
				s.Threads.Tasks = ts.readTasks(busyThreads(s.Processlist, ts.busy), 0)
			}
			b.ReportMetric(float64(len(s.Threads.Tasks)), "tasks")
		})
	}
}
