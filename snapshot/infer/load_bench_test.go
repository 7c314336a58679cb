package infer

import (
	"fmt"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// benchSessions is a busy server's processlist of n sessions: a third idle,
// the rest across running, lock, commit, network and replica states in the
// case servers print them, with per-thread rates for most (the server on
// this host, as Delta gives them from two reads of its threads) and a
// row-lock queue in the lock sources.
func benchSessions(n int) (*snapshot.Snapshot, *snapshot.Rates) {
	states := []struct{ cmd, state string }{
		{"Sleep", ""}, {"Sleep", ""}, {"Sleep", ""},
		{"Query", "Sending data"}, {"Query", "executing"}, {"Query", "updating"},
		{"Query", "Waiting for table metadata lock"}, {"Query", "waiting for handler commit"},
		{"Query", "Sending to client"}, {"Query", "Waiting for query cache lock"},
		{"Query", "Creating sort index"}, {"Execute", "statistics"}, {"Query", "User sleep"},
		{"Slave_worker", "Waiting for work from SQL thread"}, {"Query", "Copying to tmp table"},
	}
	s := &snapshot.Snapshot{Time: time.Unix(1_800_000_000, 0), Host: &snapshot.Host{NumCPU: 16}, Locks: &snapshot.Locks{}}
	prev, cur := &snapshot.Threads{PID: 1, ClockTicks: 100}, &snapshot.Threads{PID: 1, ClockTicks: 100}
	for i := range n {
		st := states[i%len(states)]
		id := int64(i + 1)
		s.Processlist = append(s.Processlist, snapshot.Process{ID: id, Command: st.cmd, State: st.state,
			User: fmt.Sprintf("app%d", i%7), Host: fmt.Sprintf("10.0.%d.%d:%d", i%3, i%50, 40000+i), DB: fmt.Sprintf("db%d", i%5),
			TimeMS: int64(i%30) * 1000, Info: fmt.Sprintf("SELECT * FROM t%d WHERE id = %d AND c IN (1,2,3)", i%40, i)})
		if i%15 == 5 {
			s.Locks.Waits = append(s.Locks.Waits, snapshot.LockWait{Waiter: id, Blocker: 1, Kind: snapshot.LockRow, Object: "shop.hot PRIMARY"})
		}
		if i%10 != 0 {
			// over one second at 100 ticks a second: CPU i%100 percent
			used := snapshot.TaskCounters{TID: id, Conn: id, CPUTicks: uint64(i % 100), ReadBytes: uint64(i%4) * 400_000}
			prev.Tasks = append(prev.Tasks, snapshot.TaskCounters{TID: id, Conn: id})
			cur.Tasks = append(cur.Tasks, used)
			cur.Process.CPUTicks += used.CPUTicks
			cur.Process.ReadBytes += used.ReadBytes
		}
	}
	s.Threads = cur
	r := snapshot.Delta(&snapshot.Snapshot{Time: s.Time.Add(-time.Second), Threads: prev}, s)
	if r.Threads == nil || len(r.Threads.Conns) != len(cur.Tasks) {
		panic("bench sessions: no thread rates")
	}
	return s, r
}

// BenchmarkClassify is the classification alone: every session of one
// sample put in its class, with the lock waits and thread rates looked up.
func BenchmarkClassify(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			s, r := benchSessions(n)
			var states stateMemo
			b.ReportAllocs()
			for b.Loop() {
				var counts snapshot.ClassLoad
				classifySessions(s, r, &states, func(_ *snapshot.Process, c snapshot.WaitClass, _ lockWait) { counts[c]++ })
				if counts.Total() == 0 {
					b.Fatal("nothing active")
				}
			}
		})
	}
}

// BenchmarkLoadMeasure is a whole sample's load as the pipeline computes it
// each tick: classification plus the slices by statement (fingerprints
// remembered from the previous tick), user, host, database and object.
func BenchmarkLoadMeasure(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			s, r := benchSessions(n)
			var m LoadMeter
			m.Measure(s, r)
			b.ReportAllocs()
			for b.Loop() {
				if l := m.Measure(s, r); l.Active == 0 {
					b.Fatal("nothing active")
				}
			}
		})
	}
}
