package analyzers

import (
	"fmt"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestRowLockWaits(t *testing.T) {
	blocker := trx(snapshot.InnoDBTrx{ID: "9001", ActiveSeconds: 200, ThreadID: 77, RowLocks: 5000})
	waiter := func(secs int64) edit {
		return trx(snapshot.InnoDBTrx{ID: "9002", ActiveSeconds: secs, LockWait: true, LockWaitSeconds: secs,
			ThreadID: 78, Query: "UPDATE acct SET bal = bal - 5 WHERE id = 3"})
	}
	runTimelines(t, IDRowLockWaits, DefaultConfig(), []timelineCase{
		{"waiter older than 10 s", series(5, blocker, waiter(9)), ".WWWW"},
		{"short waits are normal", series(4, blocker, waiter(0)), "...."},
		{"critical at innodb_lock_wait_timeout", series(4, blocker, waiter(20), vars("innodb_lock_wait_timeout", "20")),
			"CCCC"},
		{"critical at 60 s with a longer timeout", series(3, waiter(58), vars("innodb_lock_wait_timeout", "120")),
			"WWC"},
		{"no transaction list: current waits gauge", series(4, noInnoDBWith("Innodb_row_lock_current_waits", "2")),
			"..WW"},
		{"no transaction list, no waits", series(3, noInnoDBWith("Innodb_row_lock_current_waits", "0")), "..."},
		{"nothing to read", series(2), "NN"},
		{"wait ends", series(10, blocker, during(0, 4, waiter(12)), during(4, 10, emptyTrxList)), "WWWWWW...."},
	})
	snaps := series(3, blocker, waiter(30), counters(map[string]float64{"Innodb_row_lock_waits": 4,
		"Innodb_row_lock_time": 2000}), procs(sleeping(77, "batch"), query(78, 32, "Updating",
		"UPDATE acct SET bal = bal - 5 WHERE id = 3")))
	f := lastFinding(t, DefaultConfig(), snaps, IDRowLockWaits)
	mustContain(t, f, "1 transactions wait for row locks, longest 32 s",
		"waiting trx 9002 active 32 s, waiting 32 s for a lock, thread 78 app@10.0.0.12",
		"probable blocker trx 9001 active 202 s, 5,000 row locks, thread 77 batch@10.0.0.31",
		"Innodb_row_lock_waits 4.0/s", "average row lock wait 500 ms")
	if len(f.Threads) != 2 || f.Threads[0] != 78 || f.Threads[1] != 77 {
		t.Errorf("threads %v", f.Threads)
	}
}

// TestRowLockWaitsIdleHolder: a queue behind a session idle in its open
// transaction is named once its oldest wait is 3 s old, not at the 10-s
// floor: nothing on the server will release the lock. A holder busy with a
// statement, or idle only between two of them, keeps the floor.
func TestRowLockWaitsIdleHolder(t *testing.T) {
	holder := trx(snapshot.InnoDBTrx{ID: "9001", ActiveSeconds: 60, ThreadID: 77, RowLocks: 3})
	waiters := func(secs int64) edit {
		return func(i int, s *snapshot.Snapshot) {
			for k := int64(0); k < 12; k++ {
				trx(snapshot.InnoDBTrx{ID: fmt.Sprint(9100 + k), ActiveSeconds: secs, LockWait: true,
					LockWaitSeconds: secs, ThreadID: 100 + k, Query: "UPDATE acct SET bal = bal - 5 WHERE id = 3"})(i, s)
			}
		}
	}
	idleFor := func(ms int64) edit {
		return procs(snapshot.Process{ID: 77, User: "app", Host: "10.0.0.12:5000", Command: "Sleep", TimeMS: ms})
	}
	busy := procs(query(77, 4, "Updating", "UPDATE acct SET bal = 0 WHERE id > 100"))
	runTimelines(t, IDRowLockWaits, DefaultConfig(), []timelineCase{
		{"12 queued behind an idle holder", series(6, holder, waiters(1), idleFor(30000)), "..WWWW"},
		{"the holder runs a statement", series(6, holder, waiters(1), busy), "......"},
		{"the holder idle only between statements", series(6, holder, waiters(1), idleFor(200)), "......"},
		{"one waiter behind an idle holder keeps the floor", series(6, holder, trx(snapshot.InnoDBTrx{ID: "9100",
			ActiveSeconds: 1, LockWait: true, LockWaitSeconds: 1, ThreadID: 100}), idleFor(30000)), "......"},
	})
	f := lastFinding(t, DefaultConfig(), series(4, holder, waiters(1), idleFor(30000)), IDRowLockWaits)
	mustContain(t, f, "12 transactions wait for row locks, longest 4.0 s, behind session 77 idle in its transaction",
		"nothing on the server ends it")
}
