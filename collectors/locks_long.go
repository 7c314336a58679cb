package collectors

import (
	"github.com/mytop-go/mytop-go/snapshot"
)

// maxLockTableWaiters is the longest row-lock queue read from the lock
// tables. MariaDB fills INNODB_TRX, INNODB_LOCKS and INNODB_LOCK_WAITS in
// one pass, under the lock system's mutex, that lists every request as
// waiting for each one queued ahead of it. Measured on MariaDB 10.11, one
// hot row (BenchmarkLocksLockTableLimit, BenchmarkLocks1000RowWaiters): 50
// waiters 2.5 ms per collection, 100 waiters 41 ms, 200 waiters 87 ms; at
// 1,000 even "SELECT ... FROM INNODB_TRX" took 0.7-3 s and INNODB_LOCK_WAITS
// spilled ~500,000 rows to an on-disk temporary table. Beyond this many
// waiters the queue is read from the InnoDB status the InnoDB collector
// already fetched, so a pile-up costs the server nothing more.
const maxLockTableWaiters = 50

// longRowQueue handles a queue too long for the lock tables: the waiters and
// transactions come from the raw InnoDB status, the holder is inferred. It
// reports whether it did.
func longRowQueue(s *snapshot.Snapshot, l *snapshot.Locks) bool {
	n, ok := s.StatusInt("Innodb_row_lock_current_waits")
	if !ok || n <= maxLockTableWaiters {
		return false
	}
	src := "SHOW ENGINE INNODB STATUS (inferred)"
	note(l, "row locks: %d waiters, over %d: read from the InnoDB status, holders inferred (the lock tables' cost grows with the square of the queue)",
		n, maxLockTableWaiters)
	switch {
	case s.InnoDB != nil && s.InnoDB.Raw != "":
		waits, threads, truncated := snapshot.InnoDBLockWaits(s.InnoDB.Raw)
		l.Waits = append(l.Waits, waits...)
		l.Threads = append(l.Threads, threads...)
		if truncated {
			note(l, "row locks: the InnoDB status was cut short; %d of %d waiters listed", len(waits), n)
		}
	case s.InnoDB != nil && s.InnoDB.Transactions.Present:
		l.Waits = append(l.Waits, snapshot.InnoDBRowWaits(s.InnoDB.Transactions)...)
		l.Threads = append(l.Threads, snapshot.InnoDBLockThreads(s.InnoDB.Transactions)...)
	default:
		note(l, "row locks: no InnoDB status in this sample; waiters not shown")
		return true
	}
	l.Sources[snapshot.LockRow] = src
	return true
}
