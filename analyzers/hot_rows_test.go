package analyzers

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// rowLockLoad grows the row-lock counters: waits per second and
// milliseconds of waiting per second.
func rowLockLoad(waits, ms float64) edit {
	return counters(map[string]float64{rowLockWaits: waits, rowLockTime: ms})
}

// hotCounterStatus is MariaDB's TRANSACTIONS section with the given threads
// waiting for the record id=1 of shop.counter, as 10.11 prints it.
func hotCounterStatus(threads ...int64) edit {
	return func(_ int, s *snapshot.Snapshot) {
		var b strings.Builder
		b.WriteString("------------\nTRANSACTIONS\n------------\nTrx id counter 150800\n")
		for i, id := range threads {
			fmt.Fprintf(&b, "---TRANSACTION %d, ACTIVE 0 sec starting index read\n"+
				"mysql tables in use 1, locked 1\nLOCK WAIT 2 lock struct(s), heap size 1128, 1 row lock(s)\n"+
				"MariaDB thread id %d, OS thread handle 140, query id 9 localhost root Updating\n"+
				"UPDATE shop.counter SET n=n+1 WHERE id=1\n"+
				"------- TRX HAS BEEN WAITING 2989 us FOR THIS LOCK TO BE GRANTED:\n"+
				"RECORD LOCKS space id 5 page no 3 n bits 320 index PRIMARY of table `shop`.`counter` trx id %d lock_mode X locks rec but not gap waiting\n"+
				"Record lock, heap no 2 PHYSICAL RECORD: n_fields 4; compact format; info bits 0\n"+
				" 0: len 4; hex 80000001; asc     ;;\n 1: len 6; hex 000000024cde; asc     L ;;\n"+
				"------------------\n", 150700+i, id, 150700+i)
		}
		b.WriteString("--------\nFILE I/O\n--------\n")
		s.InnoDB = &snapshot.InnoDBStatus{Raw: b.String(), Transactions: snapshot.InnoDBTransactions{Present: true}}
		for i, id := range threads {
			s.InnoDB.Transactions.Trx = append(s.InnoDB.Transactions.Trx, snapshot.InnoDBTrx{
				ID: fmt.Sprint(150700 + i), ThreadID: id, State: "ACTIVE", LockWait: true})
			s.Processlist = append(s.Processlist, query(id, 0, "Updating", "UPDATE shop.counter SET n=n+1 WHERE id=1"))
		}
		s.Status["Innodb_row_lock_current_waits"] = fmt.Sprint(len(threads))
	}
}

// lockTableWaits lists threads waiting on shop.counter's PRIMARY behind
// thread 99, as INNODB_LOCK_WAITS gives them, with an InnoDB status of the
// same sample that lists no waits (read before them).
func lockTableWaits(threads ...int64) edit {
	return func(_ int, s *snapshot.Snapshot) {
		l := &snapshot.Locks{Sources: map[snapshot.LockKind]string{snapshot.LockRow: "information_schema.INNODB_LOCK_WAITS"}}
		for _, id := range threads {
			l.Waits = append(l.Waits, snapshot.LockWait{Waiter: id, Blocker: 99, Kind: snapshot.LockRow,
				Object: "shop.counter PRIMARY", Mode: "X"})
		}
		s.Locks = l
		s.InnoDB = &snapshot.InnoDBStatus{Raw: "TRANSACTIONS\n", Transactions: snapshot.InnoDBTransactions{Present: true}}
	}
}

func TestHotRows(t *testing.T) {
	runTimelines(t, IDHotRows, DefaultConfig(), []timelineCase{
		{"a hot counter: thousands of short waits, 9.5 s of waiting a second", series(6,
			rowLockLoad(6146, 9500), hotCounterStatus(11, 12, 13)), "...CCC"},
		{"two sessions waiting on average warn", series(6, rowLockLoad(400, 2000)), "...WWW"},
		{"a one-second burst is a batch", series(6, rowLockLoad(0, 0), during(2, 3, rowLockLoad(3000, 4000))), "......"},
		{"one long wait ending adds its length at once", series(6, rowLockLoad(1, 50000)), "......"},
		{"many waits of a fraction of a millisecond cost nothing", series(6, rowLockLoad(5000, 300)), "......"},
		{"a busy server with normal locking", series(6, rowLockLoad(4, 30)), "......"},
		{"no row-lock counters in this source", series(2, func(_ int, s *snapshot.Snapshot) {
			s.Status = map[string]string{"Uptime": "1000", "Threads_running": "2"}
		}), "NN"},
		{"waits reaching a timeout below row_lock_waits' floor", series(6, vars("innodb_lock_wait_timeout", "4"),
			rowLockLoad(1, 3000), trx(snapshot.InnoDBTrx{ID: "9", ThreadID: 21, LockWait: true, LockWaitSeconds: 1})),
			"...WWW"},
		{"a low timeout nobody nears is quiet", series(6, vars("innodb_lock_wait_timeout", "4"), rowLockLoad(1, 5)),
			"......"},
	})
	f := lastFinding(t, DefaultConfig(), series(6, rowLockLoad(6146, 9500), hotCounterStatus(11, 12, 13),
		vars("innodb_lock_wait_timeout", "3")), IDHotRows)
	mustContain(t, f, "hot rows: 6,146 row-lock waits/s, 9.5 s of lock wait per second (1.5 ms each) on shop.counter PRIMARY key 1",
		"Innodb_row_lock_waits 6,146/s, Innodb_row_lock_time 9500 ms/s: 9.5 sessions waiting on average",
		"3 threads in LOCK WAIT now: 11, 12, 13 (SHOW ENGINE INNODB STATUS)",
		"most waited on: shop.counter PRIMARY key 1 (3 of 3 waiters)",
		"contending: 3 × update shop.counter set n=n+? where id=? (app@10.0.0.12)",
		"innodb_lock_wait_timeout=3.0 s is below row_lock_waits' 10 s floor", "spread the counter over N rows")
	// Waiters the lock tables list before the next InnoDB status read take
	// the key the latest status gave their index.
	f = lastFinding(t, DefaultConfig(), series(6, rowLockLoad(6146, 9500), during(0, 3, hotCounterStatus(11, 12)),
		during(3, 6, lockTableWaits(31, 32, 33))), IDHotRows)
	mustContain(t, f, "most waited on: shop.counter PRIMARY key 1 (3 of 3 waiters)", "LOCK WAIT now: 31, 32, 33")
	if len(f.Threads) != 3 || f.Threads[0] != 31 {
		t.Errorf("threads %v, want the three waiters of the lock tables", f.Threads)
	}
	f = lastFinding(t, DefaultConfig(), series(6, rowLockLoad(6146, 9500), hotCounterStatus(11, 12, 13)), IDHotRows)
	if len(f.Threads) != 3 || f.Threads[0] != 11 {
		t.Errorf("threads %v, want the three waiters", f.Threads)
	}
}

func TestRecordKey(t *testing.T) {
	for line, want := range map[string]string{
		" 0: len 4; hex 80000001; asc     ;;":               "1",
		" 0: len 8; hex 7ffffffffffffffe; asc        ;;":    "-2",
		" 0: len 5; hex 616c696365; asc alice;;":            `"alice"`,
		" 0: len 3; hex 00ff10; asc    ;;":                  "0x00ff10",
		" 0: len 8; hex 8000000000000010; asc         ;;":   "16",
		" 0: len 4; hex 8000ffff; asc     ;;; 1: len 6 ...": "65535",
	} {
		if got := recordKey(line); got != want {
			t.Errorf("recordKey(%q) = %q, want %q", line, got, want)
		}
	}
}
