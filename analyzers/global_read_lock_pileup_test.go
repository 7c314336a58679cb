package analyzers

import (
	"os"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// capturedProcesslist reads a SHOW FULL PROCESSLIST written for these tests.
func capturedProcesslist(t *testing.T, name string) edit {
	t.Helper()
	b, err := os.ReadFile("testdata/global-read-lock/" + name)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := parse.ParseProcesslistTSV(string(b))
	if err != nil {
		t.Fatal(err)
	}
	return procs(ps...)
}

func mysql80(_ int, s *snapshot.Snapshot) {
	s.Server = snapshot.ServerInfo{Version: "8.0.36", Flavor: snapshot.FlavorMySQL}
	s.Variables["version"] = "8.0.36"
}

func TestGlobalReadLockPileup(t *testing.T) {
	behindSelect := capturedProcesslist(t, "mysql-8.0-ftwrl-behind-select.tsv")
	held := capturedProcesslist(t, "mysql-5.7-ftwrl-held.tsv")
	backupLock := procs(snapshot.Process{ID: 30, User: "mariabackup", Host: "localhost", Command: "Sleep", TimeMS: 9000},
		query(31, 7, backupLockState, "INSERT INTO shop.orders (item) VALUES (1)"),
		query(32, 6, backupLockState, "COMMIT"))
	// FTWRL for a moment with nothing queued: the backup is doing its job.
	aloneFlush := procs(query(40, 0.2, "starting", "FLUSH TABLES WITH READ LOCK"))
	runTimelines(t, IDGlobalReadLockPileup, DefaultConfig(), []timelineCase{
		{"MySQL: FTWRL behind a 742 s SELECT, writes waiting 94 s", series(8, mysql80, behindSelect), "....CCCC"},
		{"MySQL: FTWRL held by an idle backup session", series(7, mysql80, held), "....WWW"},
		{"MariaDB 10.4+: writes wait for the backup lock", series(7, backupLock), "....WWW"},
		{"clears once the backup lets go", series(14, during(0, 6, backupLock)), "....WWWWWW...."},
		{"a backup's FTWRL with nobody waiting", series(8, aloneFlush), "........"},
		{"a lone sample of a waiter", series(8, at([]int{3}, backupLock)), "........"},
		{"no processlist", series(2, func(_ int, s *snapshot.Snapshot) {
			s.Collectors = map[snapshot.CollectorName]snapshot.CollectorState{snapshot.CollectorProcesslist: {Unavailable: "no PROCESS"}}
		}), "NN"},
	})
}

func TestGlobalReadLockRootIsTheLongSelect(t *testing.T) {
	f := lastFinding(t, DefaultConfig(), series(6, mysql80, capturedProcesslist(t, "mysql-8.0-ftwrl-behind-select.tsv")),
		IDGlobalReadLockPileup)
	mustContain(t, f, "flush tables with read lock waits 95 s behind a 742 s query (thread 1201); 4 statements queue",
		"root: thread 1201 report@10.4.0.22 db shop, 742 s in \"executing\": select c.region",
		"backup session: thread 1377 backup@localhost", "2 in \"Waiting for table flush\"",
		"queued: thread 1380 app@10.4.0.31", "queued: thread 1390", "KILL QUERY 1201", "KILL 1377")
	if len(f.Threads) == 0 || f.Threads[0] != 1201 || f.Threads[1] != 1377 {
		t.Errorf("threads %v: want the root 1201 first, then the backup's 1377", f.Threads)
	}
	if f.Severity != snapshot.Critical {
		t.Errorf("severity %s: writes have waited 94 s", f.Severity)
	}
}

func TestGlobalReadLockHolderIsTheBackupSession(t *testing.T) {
	f := lastFinding(t, DefaultConfig(), series(6, mysql80, capturedProcesslist(t, "mysql-5.7-ftwrl-held.tsv")),
		IDGlobalReadLockPileup)
	mustContain(t, f, "2 statements wait for a global read / backup lock, oldest 28 s; held by thread 210 backup@localhost",
		"probable holder (idle since just before the oldest waiter): thread 210", "KILL 210")
	// A backup statement seen in an earlier sample names the holder for sure.
	seen := series(8, during(0, 2, procs(query(50, 0.1, "Waiting for backup lock", "BACKUP STAGE BLOCK_COMMIT"))),
		during(2, 8, procs(snapshot.Process{ID: 50, User: "root", Host: "localhost", Command: "Sleep", TimeMS: 1000},
			snapshot.Process{ID: 51, User: "app", Host: "h", Command: "Sleep", TimeMS: 3000},
			query(52, 2, backupLockState, "UPDATE t SET a = 1 WHERE id = 2"))))
	f = lastFinding(t, DefaultConfig(), seen, IDGlobalReadLockPileup)
	mustContain(t, f, "holder (seen running backup stage block_commit): thread 50", "MariaDB 10.4+")
}
