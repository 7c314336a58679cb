package parse

import (
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestParseInnoDBStatusRejectsOtherText(t *testing.T) {
	for _, text := range []string{
		"",
		"hello world\n",
		"Id\tUser\tHost\tdb\tCommand\tTime\tState\tInfo\n5\troot\tlocalhost\tNULL\tQuery\t0\tinit\tshow processlist\n",
		"Variable_name\tValue\nUptime\t100\n",
	} {
		if _, err := ParseInnoDBStatus(text); err == nil {
			t.Errorf("accepted %q", text)
		}
	}
}

func TestParseInnoDBStatusTruncatedOutput(t *testing.T) {
	full := readFixture(t, "mysql-8.0.12.txt")
	cut := full[:strings.Index(full, "Pages read ahead")]
	s, err := ParseInnoDBStatus(cut)
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "Truncated", s.Truncated, true)
	eq(t, "SequenceNumber", s.Log.SequenceNumber, 23102842)
	eq(t, "PagesRead", s.BufferPool.PagesRead, 983)
	eq(t, "Rows.Present", s.Rows.Present, false)
}

func TestParseInnoDBStatusCRLF(t *testing.T) {
	text := readFixture(t, "mysql-5.5-b.txt")
	s, err := ParseInnoDBStatus(strings.ReplaceAll(text, "\n", "\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "Truncated", s.Truncated, false)
	eq(t, "SequenceNumber", s.Log.SequenceNumber, 39213820967021)
	eq(t, "Count", s.Transactions.Count, 17)
	eq(t, "Trx[1].Query", s.Transactions.Trx[1].Query, "insert into baz.bat")
}

func TestParseInnoDBStatusLockWaitEntries(t *testing.T) {
	s, err := ParseInnoDBStatus(readFixture(t, "mariadb-10.11-lockwait-deadlock.txt"))
	if err != nil {
		t.Fatal(err)
	}
	trx := s.Transactions.Trx
	if len(trx) != 2 {
		t.Fatalf("Trx = %d entries, want 2", len(trx))
	}
	want := []snapshot.InnoDBTrx{
		{ID: "24", ActiveSeconds: 7, State: "ACTIVE", LockWait: true, LockWaitSeconds: 7, ThreadID: 6, OSThread: "139710925551296",
			RowLocks: 1, TablesInUse: 1, TablesLocked: 1, Query: "update t.a set v=11 where id=1"},
		{ID: "23", ActiveSeconds: 8, State: "ACTIVE", ThreadID: 5, OSThread: "139710925858496", RowLocks: 1, UndoEntries: 1,
			Query: "select sleep(20)"},
	}
	for i := range want {
		eq(t, "Trx", trx[i], want[i])
	}
	if !strings.HasPrefix(s.LatestDeadlock, "2026-12-01 04:58:26") ||
		!strings.HasSuffix(s.LatestDeadlock, "*** WE ROLL BACK TRANSACTION (1)") {
		t.Errorf("deadlock text not kept whole: %.60q ... ", s.LatestDeadlock)
	}
}

// A MySQL-style list: waits printed in seconds, multi-line statement, 5.5
// header with extra fields after the state.
const mysqlLockWaitList = `=====================================
2024-01-02 03:04:05 0x7f INNODB MONITOR OUTPUT
=====================================
------------
TRANSACTIONS
------------
Trx id counter 1000
History list length 7
---TRANSACTION 421, not started
0 lock struct(s), heap size 1136, 0 row lock(s)
---TRANSACTION 998, ACTIVE 45 sec starting index read
mysql tables in use 1, locked 1
LOCK WAIT 2 lock struct(s), heap size 1136, 1 row lock(s)
MySQL thread id 12, OS thread handle 1, query id 99 localhost root updating
UPDATE t
SET v = 2 WHERE id = 1
------- TRX HAS BEEN WAITING 12 SEC FOR THIS LOCK TO BE GRANTED:
RECORD LOCKS space id 5 page no 3 n bits 72 index PRIMARY of table ` + "`t`.`t`" + ` trx id 998 lock_mode X waiting
------------------
---TRANSACTION 997, ACTIVE 300 sec, process no 1, OS thread id 2
2 lock struct(s), heap size 1136, 5 row lock(s), undo log entries 3
MySQL thread id 11, OS thread handle 2, query id 98 localhost root
----------------------------
END OF INNODB MONITOR OUTPUT
============================
`

func TestParseInnoDBStatusMySQLLockWait(t *testing.T) {
	s, err := ParseInnoDBStatus(mysqlLockWaitList)
	if err != nil {
		t.Fatal(err)
	}
	tx := s.Transactions
	eq(t, "Count", tx.Count, 3)
	eq(t, "Active", tx.Active, 2)
	eq(t, "LockWaits", tx.LockWaits, 1)
	eq(t, "OldestActiveSeconds", tx.OldestActiveSeconds, 300)
	eq(t, "Trx[0].LockWaitSeconds", tx.Trx[0].LockWaitSeconds, 12)
	eq(t, "Trx[0].Query", tx.Trx[0].Query, "UPDATE t\nSET v = 2 WHERE id = 1")
	eq(t, "Trx[1].Query", tx.Trx[1].Query, "")
	eq(t, "Trx[1].UndoEntries", tx.Trx[1].UndoEntries, 3)
	eq(t, "Truncated", s.Truncated, false)
}

// With several instances the section holds totals and the instances follow
// in their own section; only the totals may be counted.
const multiInstanceBufferPool = `----------------------
BUFFER POOL AND MEMORY
----------------------
Total large memory allocated 274857984
Buffer pool size   16384
Free buffers       1000
Database pages     15000
Modified db pages  300
Pages read 500, created 20, written 70
----------------------
INDIVIDUAL BUFFER POOL INFO
----------------------
---BUFFER POOL 0
Buffer pool size   8192
Free buffers       500
Database pages     7500
Modified db pages  150
Pages read 250, created 10, written 35
---BUFFER POOL 1
Buffer pool size   8192
Free buffers       500
Database pages     7500
Modified db pages  150
Pages read 250, created 10, written 35
--------------
ROW OPERATIONS
--------------
0 queries inside InnoDB, 3 queries in queue
`

func TestParseInnoDBStatusMultipleBufferPools(t *testing.T) {
	s, err := ParseInnoDBStatus(multiInstanceBufferPool)
	if err != nil {
		t.Fatal(err)
	}
	bp := s.BufferPool
	eq(t, "SizePages", bp.SizePages, 16384)
	eq(t, "FreePages", bp.FreePages, 1000)
	eq(t, "ModifiedPages", bp.ModifiedPages, 300)
	eq(t, "PagesRead", bp.PagesRead, 500)
	eq(t, "DirtyPercent", bp.DirtyPercent, 300.0/16000*100)
	eq(t, "QueriesInQueue", s.Rows.QueriesInQueue, 3)
	eq(t, "Truncated", s.Truncated, true)
}

func TestParseInnoDBStatusSystemRowsDoNotOverwrite(t *testing.T) {
	s, err := ParseInnoDBStatus(readFixture(t, "mysql-9.2.0.txt"))
	if err != nil {
		t.Fatal(err)
	}
	eq(t, "Inserted", s.Rows.Inserted, 2267)
	eq(t, "InsertsPerSec", s.Rows.InsertsPerSec, 111000)
	eq(t, "ReadsPerSec", s.Rows.ReadsPerSec, 145117000)
	eq(t, "WrittenUpTo", s.Log.WrittenUpTo, 21228599)
	eq(t, "BufferAssignedUpTo", s.Log.BufferAssignedUpTo, 21228847)
}

func TestParseInnoDBStatusPerconaLog(t *testing.T) {
	s, err := ParseInnoDBStatus(readFixture(t, "percona-sample-001.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// "Checkpoint age 634288" is printed too; ours must agree with it.
	eq(t, "CheckpointAge", s.Log.CheckpointAge, 634288)
	eq(t, "MaxCheckpointAge", s.Log.MaxCheckpointAge, 325436314)
	eq(t, "PendingLogFlushes", s.Log.PendingLogFlushes, 1)
	eq(t, "SizeBytes", s.BufferPool.SizeBytes, 90194296832)
	eq(t, "PendingWritesLRU", s.BufferPool.PendingWritesLRU, 63)
}

func TestFillCapacity(t *testing.T) {
	cases := []struct {
		name    string
		vars    map[string]string
		capa    int64
		percent float64
	}{
		{"mysql 8.0.30+", map[string]string{"innodb_redo_log_capacity": "104857600",
			"innodb_log_file_size": "1", "innodb_log_files_in_group": "2"}, 104857600, 10},
		{"file size times group", map[string]string{"innodb_log_file_size": "26214400",
			"innodb_log_files_in_group": "2"}, 52428800, 20},
		{"mariadb single file", map[string]string{"innodb_log_file_size": "104857600"}, 104857600, 10},
		{"unknown", map[string]string{"innodb_log_file_size": "junk"}, 0, 0},
		{"no variables", nil, 0, 0},
	}
	for _, c := range cases {
		s := &snapshot.InnoDBStatus{Log: snapshot.InnoDBLog{Present: true, CheckpointAge: 10485760}}
		s.FillCapacity(c.vars)
		eq(t, c.name+" CapacityBytes", s.Log.CapacityBytes, c.capa)
		eq(t, c.name+" CheckpointAgePercent", s.Log.CheckpointAgePercent, c.percent)
	}
	var nilStatus *snapshot.InnoDBStatus
	nilStatus.FillCapacity(map[string]string{"innodb_redo_log_capacity": "1"})
}

func FuzzParseInnoDBStatus(f *testing.F) {
	for _, name := range []string{"mysql-5.5-b.txt", "mysql-8.1.0.txt", "mariadb-10.11-lockwait-deadlock.txt",
		"mariadb-10.11-batch-escaped.txt", "percona-sample-004.txt"} {
		f.Add(readFixture(f, name))
	}
	f.Add(mysqlLockWaitList)
	f.Add("---\nLOG\n---\nLog sequence number 1 2 3\nLast checkpoint at 99999999999999999999\n")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseInnoDBStatus(text)
		if err != nil {
			return
		}
		if s.Raw != text {
			t.Fatal("Raw differs from input")
		}
		if s.Log.CheckpointAge < 0 || s.Transactions.Active > s.Transactions.Count {
			t.Fatalf("inconsistent: age %d, active %d of %d", s.Log.CheckpointAge,
				s.Transactions.Active, s.Transactions.Count)
		}
		s.FillCapacity(map[string]string{"innodb_redo_log_capacity": "1048576"})
	})
}

func BenchmarkParseInnoDBStatus(b *testing.B) {
	for _, name := range []string{"mariadb-10.11-load-a.txt", "percona-sample-002.txt"} {
		text := readFixture(b, name)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseInnoDBStatus(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	big := bigStatus(b)
	b.Run("1MB", func(b *testing.B) {
		b.SetBytes(int64(len(big)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ParseInnoDBStatus(big); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// bigStatus is a fixture whose transaction list is padded to the 1 MB cap.
func bigStatus(b *testing.B) string {
	text := readFixture(b, "mysql-5.5-b.txt")
	at := strings.Index(text, "---TRANSACTION 0, not started")
	entry := "---TRANSACTION B0055553, ACTIVE 3 sec\nmysql tables in use 1, locked 1\n" +
		"MySQL thread id 406404, query id 84817397 10.8.0.86 robot\nselect * from t where id = 1\n"
	pad := strings.Repeat(entry, (1<<20-len(text))/len(entry))
	return text[:at] + pad + text[at:]
}

// MySQL 5.1 glued "TOO DEEP OR LONG SEARCH ..." to the deadlock's clock.
func TestParseInnoDBStatusDeadlockTimeGluedToText(t *testing.T) {
	text := "\n------------------------\nLATEST DETECTED DEADLOCK\n------------------------\n" +
		"130624 17:39:24TOO DEEP OR LONG SEARCH IN THE LOCK TABLE WAITS-FOR GRAPH, WE WILL ROLL BACK FOLLOWING TRANSACTION \n\n" +
		"*** TRANSACTION:\nTRANSACTION 3BF88F886, ACTIVE 0 sec setting auto-inc lock\n"
	s, err := ParseInnoDBStatus(text)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.LatestDeadlockTime.Format("2006-01-02 15:04:05"); got != "2013-06-24 17:39:24" {
		t.Errorf("deadlock time %s", got)
	}
}
