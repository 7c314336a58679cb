package parse

import (
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// The AUTO-INC incident as MariaDB 10.11 printed it (innodb_autoinc_lock_mode=0:
// two INSERT … SELECT copies into app.dst, one holding the table's AUTO-INC
// lock, and 12 single-row inserters), by default and with
// innodb_status_output_locks=ON: every "lock mode AUTO-INC waiting" line is a
// table-lock edge to the copy, guessed by its statement where the status does
// not print the lock lists, exact where it does.
func TestInnoDBLockWaitsAutoIncQueue(t *testing.T) {
	for _, c := range []struct {
		file     string
		inferred bool
		source   string
	}{
		{"mariadb-10.11-autoinc-queue.txt", true, "SHOW ENGINE INNODB STATUS (inferred)"},
		{"mariadb-10.11-autoinc-queue-lock-lists.txt", false, "SHOW ENGINE INNODB STATUS (holders from their lock lists)"},
	} {
		t.Run(c.file, func(t *testing.T) {
			text := readFixture(t, c.file)
			waiting := strings.Count(text, "lock mode AUTO-INC waiting")
			if waiting < 12 {
				t.Fatalf("fixture has %d AUTO-INC waits", waiting)
			}
			waits, threads, _ := InnoDBLockWaits(text)
			holder := int64(-1)
			n := 0
			for _, w := range waits {
				if w.Kind != snapshot.LockTable {
					continue
				}
				n++
				if w.Object != "app.dst" || w.Mode != "AUTO-INC" || w.Inferred != c.inferred || w.Blocker == 0 ||
					w.Record != "" || w.Waiter == w.Blocker {
					t.Errorf("edge %+v", w)
				}
				if holder != -1 && w.Blocker != holder {
					t.Errorf("edge %+v: holder %d, want one holder", w, holder)
				}
				holder = w.Blocker
			}
			if n == 0 {
				t.Fatalf("no table-lock edge among %d waits", len(waits))
			}
			var copyQuery string
			st, err := ParseInnoDBStatus(text)
			if err != nil {
				t.Fatal(err)
			}
			for _, trx := range st.Transactions.Trx {
				if trx.ThreadID == holder {
					copyQuery = trx.Query
					if trx.LockWait {
						t.Errorf("holder %d waits itself", holder)
					}
				}
			}
			if !strings.HasPrefix(copyQuery, "INSERT INTO app.dst (v) SELECT") {
				t.Errorf("holder %d runs %q, want a copy", holder, copyQuery)
			}
			if n != st.Transactions.LockWaits {
				t.Errorf("%d table-lock edges, %d transactions in LOCK WAIT", n, st.Transactions.LockWaits)
			}
			if got := InnoDBWaitSources(waits)[snapshot.LockTable]; got != c.source {
				t.Errorf("source %q, want %q", got, c.source)
			}
			tr := infer.BuildLockTree(&snapshot.Snapshot{Locks: &snapshot.Locks{Waits: waits, Threads: threads}})
			if tr == nil || tr.Roots[0].Thread != holder || tr.Roots[0].Kinds[snapshot.LockTable] != n {
				t.Errorf("tree roots %+v, want the copy above %d table-lock waiters", tr.Roots, n)
			}
		})
	}
}

// tableLockStatus is a TRANSACTIONS section with a holder of table t.m
// (thread 40, tables locked, idle: a LOCK TABLES session), an optional
// second session, and thread 41 waiting for the table in mode IX.
func tableLockStatus(holderLocks, other string) string {
	return `=====================================
2026-12-06 07:40:00 0x7f INNODB MONITOR OUTPUT
=====================================
------------
TRANSACTIONS
------------
Trx id counter 3000
History list length 7
---TRANSACTION 2001, ACTIVE 30 sec
mysql tables in use 1, locked 1
1 lock struct(s), heap size 1136, 0 row lock(s)
MySQL thread id 40, OS thread handle 1, query id 5 localhost root
` + holderLocks + other + `---TRANSACTION 2002, ACTIVE 5 sec
mysql tables in use 1, locked 1
LOCK WAIT 2 lock struct(s), heap size 1136, 0 row lock(s)
MySQL thread id 41, OS thread handle 2, query id 6 localhost root update
INSERT INTO t.m VALUES (1)
------- TRX HAS BEEN WAITING 5 SEC FOR THIS LOCK TO BE GRANTED:
TABLE LOCK table ` + "`t`.`m`" + ` trx id 2002 lock mode IX waiting
------------------
----------------------------
END OF INNODB MONITOR OUTPUT
============================
`
}

func TestInnoDBLockWaitsTableLockHolder(t *testing.T) {
	otherLocker := `---TRANSACTION 2003, ACTIVE 9 sec
mysql tables in use 1, locked 1
1 lock struct(s), heap size 1136, 0 row lock(s)
MySQL thread id 42, OS thread handle 3, query id 7 localhost root
`
	otherReader := `---TRANSACTION 2003, ACTIVE 9 sec
mysql tables in use 1, locked 0
1 lock struct(s), heap size 1136, 0 row lock(s)
MySQL thread id 42, OS thread handle 3, query id 7 localhost root Sending data
SELECT * FROM t.other
`
	for _, c := range []struct {
		name, holderLocks, other string
		want                     snapshot.LockWait
	}{
		{"the one session with tables locked, guessed", "", otherReader,
			snapshot.LockWait{Waiter: 41, Blocker: 40, Inferred: true}},
		{"two sessions with tables locked: not seen", "", otherLocker,
			snapshot.LockWait{Waiter: 41, Inferred: true}},
		{"its lock list shows X: exact", "TABLE LOCK table `t`.`m` trx id 2001 lock mode X\n", otherLocker,
			snapshot.LockWait{Waiter: 41, Blocker: 40}},
		{"an IX it holds does not block IX", "TABLE LOCK table `t`.`m` trx id 2001 lock mode IX\n", "",
			snapshot.LockWait{Waiter: 41, Blocker: 40, Inferred: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			waits, _, _ := InnoDBLockWaits(tableLockStatus(c.holderLocks, c.other))
			want := c.want
			want.Kind, want.Object, want.Mode, want.WaitS = snapshot.LockTable, "t.m", "IX", 5
			if len(waits) != 1 || waits[0] != want {
				t.Errorf("got  %+v\nwant %+v", waits, want)
			}
		})
	}
}

func TestTableLocksConflict(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"AUTO-INC", "AUTO-INC", true}, {"AUTO-INC", "IX", false}, {"IX", "AUTO-INC", false},
		{"IX", "S", true}, {"S", "IS", false}, {"IS", "X", true}, {"X", "IS", true}, {"odd", "IS", true},
	} {
		if got := tableLocksConflict(c.a, c.b); got != c.want {
			t.Errorf("%s waits for %s: %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
