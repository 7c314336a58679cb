package collectors

import (
	"context"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
	"github.com/mytop-go/mytop-go/snapshot/parse"
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

// longRowQueue handles a queue too long for the lock tables: the waiters
// and transactions come from the raw InnoDB status (read again unless the
// frame's was read this tick), each record's holder exact where the record
// names it, else inferred and marked (snapshot.InnoDBLockWaits). It
// reports whether it did.
func (c *locks) longRowQueue(ctx context.Context, sess *session, s *snapshot.Snapshot, l *snapshot.Locks) (bool, error) {
	n, ok := s.StatusInt("Innodb_row_lock_current_waits")
	if !ok || n <= maxLockTableWaiters {
		return false, nil
	}
	note(l, "row locks: %d waiters, over %d: read from the InnoDB status (the lock tables' cost grows with the square of the queue)",
		n, maxLockTableWaiters)
	st, err := c.innoDBForLocks(ctx, sess, s, l)
	if err != nil || st == nil {
		return true, err
	}
	l.ReadAt[snapshot.LockRow] = st.ReadAt
	var waits []snapshot.LockWait
	var threads []snapshot.LockThread
	switch {
	case st.Raw != "":
		var truncated bool
		waits, threads, truncated = parse.InnoDBLockWaits(st.Raw)
		if truncated {
			note(l, "row locks: the InnoDB status was cut short; %d of %d waiters listed", len(waits), n)
		}
	case st.Transactions.Present:
		waits = infer.InnoDBRowWaits(st.Transactions)
		threads = infer.InnoDBLockThreads(st.Transactions)
	default:
		note(l, "row locks: no transactions in the InnoDB status; waiters not shown")
		return true, nil
	}
	l.Waits = append(l.Waits, waits...)
	l.Threads = append(l.Threads, threads...)
	innoDBSources(l, waits, st.ReadAt)
	if unseen := unseenRecords(waits); unseen > 0 {
		note(l, "row locks: InnoDB does not print who holds %d of the records waited for; it is one of %s",
			unseen, strings.Join(parse.InnoDBHolderCandidates(threads, waits), ", "))
	}
	return true, nil
}

// innoDBSources names the status as the source of the row-lock edges and,
// when it gave some, of the table-lock ones (AUTO-INC, LOCK TABLES on InnoDB).
func innoDBSources(l *snapshot.Locks, waits []snapshot.LockWait, readAt time.Time) {
	for kind, src := range parse.InnoDBWaitSources(waits) {
		l.Sources[kind] = src
		if kind != snapshot.LockRow { // the row part's time is set by the caller, waits or none
			l.ReadAt[kind] = readAt
		}
	}
}

// unseenRecords counts the records whose holder is not named.
func unseenRecords(waits []snapshot.LockWait) int {
	seen := map[string]bool{}
	for _, w := range waits {
		if w.Blocker == 0 && w.BlockerTrx == "" && w.Kind == snapshot.LockRow {
			seen[w.Object+"|"+w.Record] = true
		}
	}
	return len(seen)
}
