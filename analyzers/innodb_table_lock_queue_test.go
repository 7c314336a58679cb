package analyzers

import (
	"os"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// autoIncQueue is the incident: two copies into app.dst under
// innodb_autoinc_lock_mode=0, thread 25 holding the AUTO-INC lock, thread 24
// (the second copy) and n single-row inserters queued behind it, as
// INNODB_LOCKS lists them (lock_type TABLE).
func autoIncQueue(n int, waitS int64) edit {
	return func(_ int, s *snapshot.Snapshot) {
		s.Processlist = append(s.Processlist, query(25, 3, "Sending data", "insert into app.dst(v) select v from app.src"),
			query(24, 3, "Sending data", "insert into app.dst(v) select v from app.src"))
		l := &snapshot.Locks{Sources: map[snapshot.LockKind]string{snapshot.LockTable: "information_schema.INNODB_LOCK_WAITS"}}
		l.Waits = append(l.Waits, snapshot.LockWait{Waiter: 24, Blocker: 25, Kind: snapshot.LockTable,
			Object: "app.dst", Mode: "AUTO_INC", WaitS: waitS})
		for k := range n {
			id := int64(30 + k)
			s.Processlist = append(s.Processlist, query(id, 1, "Update", "insert into app.dst(v) values('a')"))
			l.Waits = append(l.Waits, snapshot.LockWait{Waiter: id, Blocker: 25, Kind: snapshot.LockTable,
				Object: "app.dst", Mode: "AUTO_INC", WaitS: 1})
		}
		s.Locks = l
	}
}

// A holder of row locks with waiters: row_lock_waits' case, never this rule's.
func rowQueue(_ int, s *snapshot.Snapshot) {
	s.Processlist = append(s.Processlist, query(9, 0, "", ""), query(10, 2, "Updating", "update app.acct set n=n+1 where id=1"))
	s.Locks = &snapshot.Locks{Waits: []snapshot.LockWait{{Waiter: 10, Blocker: 9, Kind: snapshot.LockRow,
		Object: "app.acct PRIMARY", Mode: "X", WaitS: 20}}}
}

// A MyISAM queue inferred from the processlist: table_lock_contention's.
func inferredTableQueue(_ int, s *snapshot.Snapshot) {
	s.Locks = &snapshot.Locks{}
	for k := range 5 {
		s.Locks.Waits = append(s.Locks.Waits, snapshot.LockWait{Waiter: int64(40 + k), Blocker: 3,
			Kind: snapshot.LockTable, Object: "app.m", Inferred: true})
	}
}

func TestInnoDBTableLockQueue(t *testing.T) {
	mode0 := vars("innodb_autoinc_lock_mode", "0", "binlog_format", "STATEMENT")
	runTimelines(t, IDInnoDBTableLockQueue, DefaultConfig(), []timelineCase{
		{"12 inserters behind a copy's AUTO-INC lock", series(6, mode0, autoIncQueue(12, 2)), "..WWWW"},
		{"one inserter waiting long", series(5, mode0, autoIncQueue(0, 8)), "..WWW"},
		{"the lock working: one brief waiter", series(6, mode0, autoIncQueue(1, 0)), "......"},
		{"healthy: no waits", series(6, mode0), "......"},
		{"row locks are not table locks", series(6, rowQueue), "......"},
		{"MyISAM queues are table_lock_contention's", series(6, inferredTableQueue), "......"},
	})
	f := lastFinding(t, DefaultConfig(), series(5, mode0, autoIncQueue(12, 2)), IDInnoDBTableLockQueue)
	mustContain(t, f, "13 transactions queue for the AUTO-INC lock of app.dst behind thread 25",
		"holder: thread 25", "waiting: thread 30", "innodb_autoinc_lock_mode=0, binlog_format=STATEMENT",
		"root blocker: thread 25", "innodb_autoinc_lock_mode", "statement-based replication", "binlog_format is ROW")
	if len(f.Threads) == 0 || f.Threads[0] != 25 {
		t.Errorf("threads %v, want the holder first", f.Threads)
	}
}

// fromInnoDBStatus is a frame whose lock part came from a captured InnoDB
// status alone (the lock tables refused, or an imported capture), with the
// processlist its transactions show.
func fromInnoDBStatus(t *testing.T, file string) edit {
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	st, err := parse.ParseInnoDBStatus(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	waits, threads, _ := parse.InnoDBLockWaits(st.Raw)
	return func(_ int, s *snapshot.Snapshot) {
		for _, trx := range st.Transactions.Trx {
			if trx.ThreadID != 0 {
				s.Processlist = append(s.Processlist, query(trx.ThreadID, float64(trx.ActiveSeconds), "Update", trx.Query))
			}
		}
		s.Locks = &snapshot.Locks{Waits: waits, Threads: threads, Sources: parse.InnoDBWaitSources(waits)}
	}
}

// The AUTO-INC queue read from the InnoDB status alone: named, with the copy
// as its holder, guessed where the status prints no lock lists.
func TestInnoDBTableLockQueueFromStatus(t *testing.T) {
	mode0 := vars("innodb_autoinc_lock_mode", "0", "binlog_format", "STATEMENT")
	for _, c := range []struct {
		file, holder string
	}{
		{autoIncStatus + ".txt", "holder (guessed: the InnoDB status prints who holds a table lock only with"},
		{autoIncStatus + "-lock-lists.txt", "holder: thread"},
	} {
		t.Run(c.file, func(t *testing.T) {
			snaps := series(6, mode0, fromInnoDBStatus(t, c.file))
			if got := timeline(t, DefaultConfig(), snaps, IDInnoDBTableLockQueue); got != "..WWWW" {
				t.Errorf("got %s, want ..WWWW", got)
			}
			f := lastFinding(t, DefaultConfig(), snaps, IDInnoDBTableLockQueue)
			mustContain(t, f, "transactions queue for the AUTO-INC lock of app.dst behind thread",
				"insert into app.dst (v) select v from app.src", c.holder, "mode AUTO-INC", "read from SHOW ENGINE INNODB STATUS",
				"innodb_autoinc_lock_mode=0")
		})
	}
}
