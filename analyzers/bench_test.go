package analyzers

import (
	"fmt"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// busySnapshot is one realistic frame of a loaded server: 5,000 connections
// (most asleep), a few hundred running in a mix of states, a full status map,
// 100 InnoDB transactions, host figures and a stored plan.
func busySnapshot(i int) *snapshot.Snapshot {
	states := []string{"Sending data", "Waiting for query cache lock", "Updating", "statistics",
		"Waiting for table level lock", "Creating sort index", "executing", "Copying to tmp table"}
	s := series(1, qcOn)[0]
	s.Time = t0.Add(time.Duration(i) * time.Second)
	s.Status["Uptime"] = fmt.Sprint(100000 + i)
	for k := range 500 {
		s.Status[fmt.Sprintf("Com_stmt_%03d", k)] = fmt.Sprint(k * 1000 * (i + 1))
	}
	for _, n := range []string{bpRequests, bpReads, tmpDisk, tmpTables, "Sort_scan", "Sort_range", sortMerge,
		logWaits, "Table_locks_immediate", "Table_locks_waited", "Qcache_hits", "Innodb_row_lock_waits"} {
		s.Status[n] = fmt.Sprint(1e6 + 500*i)
	}
	s.Processlist = make([]snapshot.Process, 0, 5000)
	for k := range 5000 {
		p := sleeping(int64(k+1), fmt.Sprintf("app%d", k%7))
		if k%12 == 0 {
			p = query(int64(k+1), float64(k%40), states[k%len(states)],
				fmt.Sprintf("SELECT * FROM items WHERE id = %d AND note LIKE 'x%%' ORDER BY id LIMIT 20 OFFSET %d", k, k*10))
		}
		s.Processlist = append(s.Processlist, p)
	}
	s.Processlist = append(s.Processlist, query(9999, 48, "Updating", scanSQL))
	plan(scanSQL, "ALL", "", 2100000, 2100000)(0, s)
	s.InnoDB = &snapshot.InnoDBStatus{Transactions: snapshot.InnoDBTransactions{Present: true}}
	for k := range 100 {
		trx(snapshot.InnoDBTrx{ID: fmt.Sprint(k), ActiveSeconds: int64(k * 5), ThreadID: int64(k*12 + 1),
			RowLocks: int64(k), LockWait: k%10 == 0, LockWaitSeconds: int64(k)})(i, s)
	}
	cpuLoad(16, 8, 60)(i, s)
	for _, d := range []string{"sda", "sdb", "nvme0n1", "loop0"} {
		disk(d, 40, 5, 300)(i, s)
	}
	return s
}

func BenchmarkEvaluateAll(b *testing.B) {
	prev := &snapshot.Frame{Seq: 0, Snapshot: busySnapshot(0)}
	cur := busySnapshot(1)
	e := NewEngine(DefaultConfig())
	window := []*snapshot.Frame{prev}
	e.Evaluate(window)
	b.ReportAllocs()
	b.ResetTimer()
	for n := range b.N {
		// Each iteration is a new frame continuing the last one, as live.
		s := *cur
		s.Time = prev.Snapshot.Time.Add(time.Second)
		f := &snapshot.Frame{Seq: n + 1, Snapshot: &s, Rates: snapshot.Delta(prev.Snapshot, &s)}
		findings, _ := e.Evaluate([]*snapshot.Frame{prev, f})
		if len(findings) == 0 {
			b.Fatal("a loaded frame must raise findings")
		}
		prev = f
	}
}
