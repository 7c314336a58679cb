package snapshot

import (
	"fmt"
	"testing"
	"time"
)

// benchSessions is a busy server's processlist of n sessions: a third idle,
// the rest across running, lock, commit, network and replica states in the
// case servers print them, with per-thread rates for most (the server on
// this host) and a row-lock queue in the lock sources.
func benchSessions(n int) (*Snapshot, *Rates) {
	states := []struct{ cmd, state string }{
		{"Sleep", ""}, {"Sleep", ""}, {"Sleep", ""},
		{"Query", "Sending data"}, {"Query", "executing"}, {"Query", "updating"},
		{"Query", "Waiting for table metadata lock"}, {"Query", "waiting for handler commit"},
		{"Query", "Sending to client"}, {"Query", "Waiting for query cache lock"},
		{"Query", "Creating sort index"}, {"Execute", "statistics"}, {"Query", "User sleep"},
		{"Slave_worker", "Waiting for work from SQL thread"}, {"Query", "Copying to tmp table"},
	}
	s := &Snapshot{Time: time.Unix(1_800_000_000, 0), Host: &Host{NumCPU: 16}, Locks: &Locks{}}
	tr := &ThreadRates{}
	for i := range n {
		st := states[i%len(states)]
		id := int64(i + 1)
		s.Processlist = append(s.Processlist, Process{ID: id, Command: st.cmd, State: st.state,
			User: fmt.Sprintf("app%d", i%7), Host: fmt.Sprintf("10.0.%d.%d:%d", i%3, i%50, 40000+i), DB: fmt.Sprintf("db%d", i%5),
			TimeMS: int64(i%30) * 1000, Info: fmt.Sprintf("SELECT * FROM t%d WHERE id = %d AND c IN (1,2,3)", i%40, i)})
		if i%15 == 5 {
			s.Locks.Waits = append(s.Locks.Waits, LockWait{Waiter: id, Blocker: 1, Kind: LockRow, Object: "shop.hot PRIMARY"})
		}
		if i%10 != 0 {
			tr.Conns = append(tr.Conns, TaskRate{Conn: id, CPU: float64(i % 100), ReadBps: float64(i%4) * 400_000})
		}
	}
	tr.byConn = make(map[int64]int, len(tr.Conns))
	for i, r := range tr.Conns {
		tr.byConn[r.Conn] = i
	}
	return s, &Rates{Interval: 1, Threads: tr}
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
				var counts ClassLoad
				classifySessions(s, r, &states, func(_ *Process, c WaitClass, _ lockWait) { counts[c]++ })
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
