package analyzers

import (
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// dumpSession is mariadb-dump's connection 12 dumping a table.
func dumpSession(_ int, s *snapshot.Snapshot) {
	p := query(12, 4, "Sending data", "SELECT /*!40001 SQL_NO_CACHE */ `id`, `k`, `c`, `pad` FROM `sbtest3`")
	p.User, p.Host = "root", "localhost"
	s.Processlist = append(s.Processlist, p)
}

func TestLongTransactionOfRoutineWork(t *testing.T) {
	dumpTrx := func(secs int64) edit {
		return trx(snapshot.InnoDBTrx{ID: "77", ActiveSeconds: secs, ThreadID: 12})
	}
	waiter := trx(snapshot.InnoDBTrx{ID: "78", ActiveSeconds: 5, ThreadID: 13, LockWait: true, LockWaitSeconds: 5})
	runTimelines(t, IDLongTransaction, DefaultConfig(), []timelineCase{
		{"a dump open 6 minutes blocks no one", series(4, dumpTrx(360), dumpSession), "iiii"},
		{"nor past 10 minutes", series(3, dumpTrx(700), dumpSession), "iii"},
		{"the same transaction without the dump's marker", series(3, dumpTrx(700)), "CCC"},
		{"a dump that others wait on", series(3, trx(snapshot.InnoDBTrx{ID: "77", ActiveSeconds: 400, ThreadID: 12,
			RowLocks: 2}), waiter, dumpSession), "WWW"},
		{"an application's transaction beside the dump is still named", series(3, dumpTrx(700), dumpSession,
			trx(snapshot.InnoDBTrx{ID: "90", ActiveSeconds: 350, ThreadID: 20}), procs(sleeping(20, "app"))), "WWW"},
		{"an application account named backup_api idle in a transaction for hours", series(3, trx(snapshot.InnoDBTrx{
			ID: "95", ActiveSeconds: 7200, ThreadID: 30}), procs(sleeping(30, "backup_api"))), "CCC"},
		{"history grows under a dump", series(5, dumpTrx(90), dumpSession, counter(historyName, 0, 200)), ".iiii"},
	})
	f := lastFinding(t, DefaultConfig(), series(3, dumpTrx(700), dumpSession), IDLongTransaction)
	mustContain(t, f, "mariadb-dump's transaction open for 702 s (session 12); it blocks no one",
		"routine work: mariadb-dump (session 12, dumping sbtest3)", "trx 77 active 702 s",
		"one consistent snapshot", "no session waits on its locks", "Nothing to do: it ends when the mariadb-dump run ends")
	if strings.Contains(f.Advice, "KILL") || strings.Contains(f.Advice, "kill") {
		t.Errorf("advice to kill a dump that blocks no one: %s", f.Advice)
	}
	f = lastFinding(t, DefaultConfig(), series(3, trx(snapshot.InnoDBTrx{ID: "77", ActiveSeconds: 400, ThreadID: 12,
		RowLocks: 2}), waiter, dumpSession), IDLongTransaction)
	mustContain(t, f, "mariadb-dump's transaction open for 402 s (thread 12)", "others wait on it", "stop the job")
	f = lastFinding(t, DefaultConfig(), series(3, dumpTrx(700), dumpSession,
		trx(snapshot.InnoDBTrx{ID: "90", ActiveSeconds: 350, ThreadID: 20}), procs(sleeping(20, "app"))), IDLongTransaction)
	mustContain(t, f, "on idle connection 20", "older still, routine and blocking no one: trx 77 active 702 s")
}
