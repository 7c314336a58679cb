package analyzers

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

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

// TestTableLockContentionIntermittent is the seed incident's convoy: a
// 50-ms MyISAM scan queues 16 readers, and a 1-s sample sees them in one
// sample of three, never three in a row.
func TestTableLockContentionIntermittent(t *testing.T) {
	convoy := func(n int) edit {
		return func(_ int, s *snapshot.Snapshot) {
			s.Processlist = append(s.Processlist, query(90, 0, "Updating", "UPDATE app.m SET hits = hits + 1 WHERE user1 = 3"))
			for k := range n {
				s.Processlist = append(s.Processlist, query(int64(10+k), 0, "Waiting for table level lock",
					"SELECT hits FROM app.m WHERE id = 7"))
			}
		}
	}
	working := func(n int) edit { // readers between lock waits, on other states
		return func(_ int, s *snapshot.Snapshot) {
			for k := range n {
				s.Processlist = append(s.Processlist, query(int64(40+k), 0, "Sending data", "SELECT hits FROM app.m WHERE id = 8"))
			}
		}
	}
	every3 := []int{1, 4, 7, 10, 13}
	runTimelines(t, IDTableLockContention, DefaultConfig(), []timelineCase{
		// Raised two samples after the third with a queue (7): onset; the
		// window holds it between sightings.
		{"16 readers queued in one sample of three", series(15, at(every3, convoy(16))), ".........WWWWWW"},
		{"one sample's queue is chance", series(15, at([]int{4}, convoy(16))), "..............."},
		{"two samples are not a pattern", series(15, at([]int{4, 10}, convoy(16))), "..............."},
		// One waiter in three samples among 30 busy threads: 1 % of sightings.
		{"a rare waiter among many working threads", series(15, working(30), at(every3, convoy(1))),
			"..............."},
	})
	snaps := series(10, at(every3, convoy(16)))
	f := lastFinding(t, DefaultConfig(), snaps, IDTableLockContention)
	mustContain(t, f, "threads keep queueing for table-level locks: waiters seen in 3 of the last 10 samples",
		"48 of 51 working-thread sightings", "last seen waiting:", "thread 10 app@10.0.0.12")
	if len(f.Threads) == 0 || f.Threads[0] != 10 {
		t.Errorf("threads %v, want the readers last seen waiting", f.Threads)
	}
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
