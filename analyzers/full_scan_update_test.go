package analyzers

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

const scanSQL = "UPDATE b SET flag = 1 WHERE c = 42"

// plan stores an EXPLAIN for q as the explain collector would.
func plan(q, typ, key string, rows, tableRows int64) edit {
	return func(_ int, s *snapshot.Snapshot) {
		if s.Explains == nil {
			s.Explains = map[string]*snapshot.Explain{}
		}
		fp := snapshot.Fingerprint(q)
		s.Explains[fp] = &snapshot.Explain{Fingerprint: fp, Method: "SHOW EXPLAIN FOR",
			Rows:      []snapshot.ExplainRow{{ID: "1", SelectType: "SIMPLE", Table: "b", Type: typ, Key: key, Rows: rows}},
			TableRows: map[string]int64{"b": tableRows}}
	}
}

// tableSizeOnly stores a failed EXPLAIN that still carries the table's rows.
func tableSizeOnly(q string, tableRows int64) edit {
	return func(_ int, s *snapshot.Snapshot) {
		fp := snapshot.Fingerprint(q)
		s.Explains = map[string]*snapshot.Explain{fp: {Fingerprint: fp, Error: "target is not running EXPLAINable command",
			TableRows: map[string]int64{"shop.b": tableRows}}}
	}
}

// scanning is the UPDATE, secs old at snapshot 0 and ageing, examined rows growing.
func scanning(id int64, secs float64, info string, examinedPerSec int64) edit {
	return func(i int, s *snapshot.Snapshot) {
		p := query(id, secs+float64(i), "Updating", info)
		p.ExaminedRows = examinedPerSec * int64(i+1)
		s.Processlist = append(s.Processlist, p)
	}
}

// rowLockWait has the lock sources show waiter queued behind holder's row lock.
func rowLockWait(waiter, holder int64, inferred bool) edit {
	return func(_ int, s *snapshot.Snapshot) {
		s.Locks = &snapshot.Locks{Waits: []snapshot.LockWait{{Waiter: waiter, Blocker: holder,
			Kind: snapshot.LockRow, Object: "shop.b PRIMARY", Inferred: inferred}}}
	}
}

// trxWaiting has the InnoDB status list thread's transaction in LOCK WAIT for secs.
func trxWaiting(thread, secs int64) edit {
	return func(_ int, s *snapshot.Snapshot) {
		s.InnoDB = &snapshot.InnoDBStatus{Transactions: snapshot.InnoDBTransactions{Present: true, LockWaits: 1,
			Trx: []snapshot.InnoDBTrx{{ID: "42", State: "ACTIVE", LockWait: true, LockWaitSeconds: secs, ThreadID: thread}}}}
	}
}

func TestFullScanUpdate(t *testing.T) {
	big := plan(scanSQL, "ALL", "", 2100000, 2100000)
	runTimelines(t, IDFullScanUpdate, DefaultConfig(), []timelineCase{
		{"EXPLAIN type ALL on a big table", series(4, big, scanning(5121, 10, scanSQL, 0)), "WWWW"},
		{"critical at innodb_lock_wait_timeout", series(4, big, scanning(5121, 48, scanSQL, 0)), "WWCC"},
		{"critical while others wait on locks", series(2, big, scanning(5121, 10, scanSQL, 0),
			procs(query(9, 2, "Waiting for table level lock", "SELECT * FROM b WHERE id = 1"))), "CC"},
		// Only its own waiters make it critical (the routine-work review).
		{"an unrelated table-level lock wait elsewhere", series(2, big, scanning(5121, 10, scanSQL, 0),
			procs(query(9, 2, "Waiting for table level lock", "SELECT * FROM other WHERE id = 1"))), "WW"},
		{"an unrelated row-lock wait elsewhere", series(2, big, scanning(5121, 10, scanSQL, 0), trxWaiting(77, 3)), "WW"},
		{"a row-lock waiter the lock sources tie to it", series(2, big, scanning(5121, 10, scanSQL, 0),
			rowLockWait(9, 5121, false)), "CC"},
		{"full index scan counts", series(2, plan(scanSQL, "index", "PRIMARY", 2100000, 2100000),
			scanning(5121, 10, scanSQL, 0)), "WW"},
		{"too young to judge", series(3, big, scanning(5121, 1, scanSQL, 0)), "..."},
		{"index lookup is fine", series(3, plan(scanSQL, "ref", "c", 3, 2100000),
			scanning(5121, 10, scanSQL, 3)), "..."},
		{"examined rows near table rows overrule the plan", series(3, plan(scanSQL, "range", "c", 10, 100000),
			scanning(5121, 10, scanSQL, 30000)), ".WW"},
		{"no plan: examined rows against table size", series(3, tableSizeOnly(scanSQL, 100000),
			scanning(5121, 10, scanSQL, 30000)), "iWW"},
		{"no plan, no size: info only", series(3, procs(query(5121, 10, "Updating", scanSQL))), "iii"},
		{"no plan, few rows examined after seconds", series(3, scanning(5121, 10, scanSQL, 1)), "..."},
		{"queued on a row lock the lock tables show", series(3, procs(query(5121, 10, "Updating", scanSQL)),
			rowLockWait(5121, 4, false)), "..."},
		{"queued on a row lock the InnoDB status shows", series(3, procs(query(5121, 10, "Updating", scanSQL)),
			trxWaiting(5121, 9)), "..."},
		{"scanned for seconds before its short wait", series(3, procs(query(5121, 10, "Updating", scanSQL)),
			trxWaiting(5121, 2)), "iii"},
		{"an inferred wait is no proof it is not scanning", series(3, procs(query(5121, 10, "Updating", scanSQL)),
			rowLockWait(5121, 4, true)), "iii"},
		{"small table scans are cheap", series(3, plan(scanSQL, "ALL", "", 50, 50),
			scanning(5121, 10, scanSQL, 50)), "..."},
		{"long SELECT is not this rule", series(2, procs(query(3, 30, "Sending data", "SELECT * FROM b"))), ".."},
		{"MySQL 8 state name", series(2, big, procs(query(7, 20, "executing", scanSQL))), "WW"},
		{"DELETE too", series(2, plan("DELETE FROM b WHERE c = 1", "ALL", "", 5000, 5000),
			procs(query(8, 20, "Updating", "DELETE FROM b WHERE c = 1"))), "WW"},
		{"clears 3 frames after it ends", series(8, big, during(0, 3, scanning(5121, 10, scanSQL, 0))), "WWWWW..."},
		{"processlist unavailable", series(2, func(_ int, s *snapshot.Snapshot) {
			s.Collectors = map[snapshot.CollectorName]snapshot.CollectorState{snapshot.CollectorProcesslist: {Unavailable: "needs PROCESS"}}
		}), "NN"},
	})
}

func TestFullScanUpdateEvidence(t *testing.T) {
	snaps := series(3, plan(scanSQL, "ALL", "", 2100000, 2100000), scanning(5121, 45, scanSQL, 50000),
		counter("Handler_read_rnd_next", 0, 50000))
	f := lastFinding(t, DefaultConfig(), snaps, IDFullScanUpdate)
	mustContain(t, f, "UPDATE b scans the whole table, running 47 s",
		"thread 5121 app@10.0.0.12 db shop, 47 s in \"Updating\", 150,000 rows examined",
		"plan (SHOW EXPLAIN FOR): table b type ALL, key NULL, ~2,100,000 rows", "reading 50,000 rows/s",
		"Handler_read_rnd_next 50,000/s", "an index on b(c)", "KILL QUERY 5121")
	if len(f.Threads) != 1 || f.Threads[0] != 5121 {
		t.Errorf("threads %v", f.Threads)
	}
}
