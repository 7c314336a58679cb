package analyzers

import "testing"

func TestTableLockContention(t *testing.T) {
	waiter := procs(query(12, 4, "Waiting for table level lock", "SELECT * FROM items WHERE id = 3"),
		query(11, 30, "Sending data", "UPDATE items SET n = n + 1 WHERE note = 'x'"))
	locks := func(immediate, waited float64) edit {
		return counters(map[string]float64{"Table_locks_immediate": immediate, "Table_locks_waited": waited})
	}
	runTimelines(t, IDTableLockContention, DefaultConfig(), []timelineCase{
		{"threads waiting (MariaDB / MySQL 5.5+)", series(4, waiter), "..WW"},
		{"threads Locked (MySQL 5.1)", series(3, procs(query(12, 4, "Locked", "SELECT 1 FROM items"))), "..W"},
		{"share of waited locks", series(5, locks(900, 100)), "...WW"},
		{"healthy share", series(5, locks(990, 5)), "....."},
		{"too few locks to judge a share", series(5, locks(3, 2)), "....."},
		{"zero denominator", series(5, locks(0, 0)), "....."},
		{"restart silences the share", series(6, locks(900, 100), restartAt(2)), "......"},
	})
}

func TestTableLockContentionEvidence(t *testing.T) {
	snaps := series(4, procs(query(12, 4, "Waiting for table level lock", "SELECT * FROM items WHERE id = 3"),
		query(11, 30, "Sending data", "UPDATE items SET n = n + 1 WHERE note = 'x'")),
		counters(map[string]float64{"Table_locks_immediate": 900, "Table_locks_waited": 100}))
	f := lastFinding(t, DefaultConfig(), snaps, IDTableLockContention)
	mustContain(t, f, "1 threads wait for table-level locks", "thread 12 app@10.0.0.12", "90.0 % of table locks immediate",
		"Table_locks_waited 100/s", "running: thread 11", "InnoDB")
	if len(f.Threads) != 2 || f.Threads[0] != 12 || f.Threads[1] != 11 {
		t.Errorf("threads %v", f.Threads)
	}
}
