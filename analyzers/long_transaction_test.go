package analyzers

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestLongTransaction(t *testing.T) {
	old := func(secs int64) edit {
		return trx(snapshot.InnoDBTrx{ID: "77", ActiveSeconds: secs, ThreadID: 12, RowLocks: 3})
	}
	runTimelines(t, IDLongTransaction, DefaultConfig(), []timelineCase{
		{"open 6 minutes", series(4, old(360)), "WWWW"},
		{"open over 10 minutes is critical", series(3, old(700)), "CCC"},
		{"young transactions", series(3, old(30)), "..."},
		{"crosses the line while watched", series(6, old(298)), "...WWW"},
		{"prepared XA counts as active", series(3, trx(snapshot.InnoDBTrx{ID: "5", State: "ACTIVE (PREPARED)",
			ActiveSeconds: 400})), "WWW"},
		{"no InnoDB status", series(2), "NN"},
		// Earlier when it costs: others wait on its row locks.
		{"young holder with waiters", series(4, old(8), trx(snapshot.InnoDBTrx{ID: "78", ActiveSeconds: 5,
			ThreadID: 13, LockWait: true, LockWaitSeconds: 5}), procs(sleeping(12, "batch"))), "..WW"},
		// One long statement holding the locks is full_scan_update's to name.
		{"holder is one long statement", series(4, old(8), trx(snapshot.InnoDBTrx{ID: "78", ActiveSeconds: 5,
			ThreadID: 13, LockWait: true, LockWaitSeconds: 5}), func(i int, s *snapshot.Snapshot) {
			s.Processlist = append(s.Processlist, query(12, float64(8+i), "Updating", "UPDATE b SET x = 1"))
		}), "...."},
		{"holder not in the processlist (status older than it)", series(4, old(8), trx(snapshot.InnoDBTrx{ID: "78",
			ActiveSeconds: 5, ThreadID: 13, LockWait: true, LockWaitSeconds: 5})), "...."},
		{"young holder, waiters gone", series(4, old(40)), "...."},
		// Or the history list grows fast while it is open.
		{"history list grows 200/s under a 90 s transaction", series(5, old(90),
			counter(historyName, 0, 200)), ".WWWW"},
		{"history list steady under a 90 s reader", series(5, old(90), status(historyName, "20000")), "....."},
		{"history list grows under a young transaction", series(5, old(20), counter(historyName, 0, 500)), "....."},
	})
	snaps := series(3, old(900), procs(sleeping(12, "report")), func(_ int, s *snapshot.Snapshot) {
		s.InnoDB.Transactions.HistoryListLength = 123456
	})
	f := lastFinding(t, DefaultConfig(), snaps, IDLongTransaction)
	mustContain(t, f, "transaction open for 902 s on idle connection 12", "oldest trx 77 active 902 s",
		"thread 12 report@10.0.0.31", "left open", "history list length 123,456", "commit or roll back")
	if len(f.Threads) != 1 || f.Threads[0] != 12 {
		t.Errorf("threads %v", f.Threads)
	}
}

// A blocker and the waiters it caught in the same second have the same age;
// InnoDB lists the newest first, so the waiters come before it.
func TestLongTransactionNamesTheBlockerOnATie(t *testing.T) {
	snaps := series(3,
		trx(snapshot.InnoDBTrx{ID: "101", ActiveSeconds: 400, ThreadID: 8, LockWait: true, LockWaitSeconds: 399}),
		trx(snapshot.InnoDBTrx{ID: "99", ActiveSeconds: 400, ThreadID: 7}),
		trx(snapshot.InnoDBTrx{ID: "100", ActiveSeconds: 400, ThreadID: 6, RowLocks: 1}),
		procs(sleeping(7, "app")))
	f := lastFinding(t, DefaultConfig(), snaps, IDLongTransaction)
	mustContain(t, f, "oldest trx 99 ", "on idle connection 7")
	if len(f.Threads) != 1 || f.Threads[0] != 7 {
		t.Errorf("threads %v, want the earliest non-waiting transaction's 7", f.Threads)
	}
}
