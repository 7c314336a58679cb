package snapshot

import (
	"testing"
	"time"
)

func threadSample(pid int, proc uint64, tasks ...TaskCounters) *Threads {
	return &Threads{PID: pid, ClockTicks: 100, Process: TaskCounters{CPUTicks: proc}, Tasks: tasks}
}

func TestThreadRates(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	burner := func(cpu, rb uint64) TaskCounters { return TaskCounters{TID: 11, Conn: 5, CPUTicks: cpu, ReadBytes: rb} }
	scanner := func(cpu, rb uint64) TaskCounters { return TaskCounters{TID: 12, Conn: 6, CPUTicks: cpu, ReadBytes: rb} }
	purge := func(cpu uint64) TaskCounters { return TaskCounters{TID: 3, Name: "purge", CPUTicks: cpu} }
	cases := []struct {
		name      string
		prev, cur *Threads
		secs      float64
		check     func(t *testing.T, r *ThreadRates)
	}{
		{"two seconds, connections and background", threadSample(7, 1000, burner(100, 0), scanner(50, 0), purge(10)),
			threadSample(7, 1500, burner(290, 0), scanner(90, 8<<20), purge(30),
				TaskCounters{TID: 13, Conn: 8, CPUTicks: 500}), 2, func(t *testing.T, r *ThreadRates) {
				if r.Process.CPU != 250 {
					t.Errorf("process CPU %v, want 250", r.Process.CPU)
				}
				if len(r.Conns) != 2 || r.Conns[0].Conn != 5 || r.Conns[0].CPU != 95 || r.Conns[1].ReadBps != 4<<20 {
					t.Errorf("conns %+v", r.Conns)
				}
				if b, ok := r.ForConn(6); !ok || b.CPU != 20 {
					t.Errorf("ForConn(6) = %+v %v", b, ok)
				}
				if _, ok := r.ForConn(8); ok {
					t.Error("a thread absent from the previous sample has no rate")
				}
				// 250 = 95 + 20 (connections) + 10 purge + 125 other (thread 13's
				// first sample, exited threads).
				want := []TaskRate{{Name: "other", CPU: 125}, {Name: "purge", CPU: 10}}
				if len(r.Background) != 2 || r.Background[0] != want[0] || r.Background[1] != want[1] {
					t.Errorf("background %+v, want %+v", r.Background, want)
				}
				if r.ConnCPU != 115 {
					t.Errorf("ConnCPU %v", r.ConnCPU)
				}
			}},
		{"mysqld restarted", threadSample(7, 1000, burner(100, 0)), threadSample(8, 10, burner(1, 0)), 1,
			func(t *testing.T, r *ThreadRates) {
				if r != nil {
					t.Errorf("rates across two processes: %+v", r)
				}
			}},
		{"thread reused by another connection", threadSample(7, 1000, burner(100, 0)),
			threadSample(7, 1100, TaskCounters{TID: 11, Conn: 9, CPUTicks: 150}), 1, func(t *testing.T, r *ThreadRates) {
				if len(r.Conns) != 0 || r.Background[0].CPU != 100 {
					t.Errorf("%+v", r)
				}
			}},
		{"counter went back", threadSample(7, 1000, burner(100, 50)), threadSample(7, 1100, burner(90, 60)), 1,
			func(t *testing.T, r *ThreadRates) {
				if len(r.Conns) != 0 {
					t.Errorf("negative CPU kept: %+v", r.Conns)
				}
			}},
		{"no I/O counters", &Threads{PID: 7, ClockTicks: 100, NoIO: "permission denied"},
			&Threads{PID: 7, ClockTicks: 100, NoIO: "permission denied"}, 1, func(t *testing.T, r *ThreadRates) {
				if !r.NoIO {
					t.Error("NoIO lost")
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			prev := &Snapshot{Time: t0, Threads: c.prev}
			cur := &Snapshot{Time: t0.Add(time.Duration(c.secs * float64(time.Second))), Threads: c.cur}
			c.check(t, Delta(prev, cur).Threads)
		})
	}
	if r := Delta(&Snapshot{Time: t0}, &Snapshot{Time: t0.Add(time.Second), Threads: threadSample(1, 1)}); r.Threads != nil {
		t.Error("rates without a previous sample")
	}
}
