package recording

import (
	"path/filepath"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// TestThreadsRecorded checks the per-thread figures survive a recording:
// mysqld's /proc counters and each connection's OS thread and memory, so a
// replay computes the same CPU%, Read/s and Mem columns as the live run.
func TestThreadsRecorded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "threads.mytop")
	w, err := Create(path, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv := newFakeServer(t, 3, 20)
	var want []*snapshot.Snapshot
	for i := range 5 {
		f := srv.frame(i)
		s := f.Snapshot
		th := &snapshot.Threads{PID: 4242, ClockTicks: 100,
			Process: snapshot.TaskCounters{CPUTicks: uint64(1000 + 150*i), ReadBytes: uint64(i) << 20}}
		for j := range s.Processlist {
			p := &s.Processlist[j]
			p.OSThread, p.MemoryBytes = 5000+p.ID, 70_000+p.ID
			if j%3 == 0 {
				th.Tasks = append(th.Tasks, snapshot.TaskCounters{TID: p.OSThread, Conn: p.ID, CPUTicks: uint64(10 * i)})
			}
		}
		th.Tasks = append(th.Tasks, snapshot.TaskCounters{TID: 4243, Name: "purge", CPUTicks: uint64(i), WriteBytes: 4096})
		s.Threads = th
		if err := w.Write(f); err != nil {
			t.Fatal(err)
		}
		want = append(want, s)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r := openT(t, path)
	for i, s := range want {
		got, err := r.Snapshot(i)
		if err != nil {
			t.Fatal(err)
		}
		got.Variables = s.Variables
		sameSnapshot(t, i, got, s)
	}
}
