package analyzers

import (
	"slices"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A full scan is critical when others queue behind it (FTS-01: "blocking
// others"): its own waiters, not any lock wait anywhere on the server (issue
// 28: an unrelated row-lock wait made an unrelated scan critical).

// scanWaiters counts the threads waiting on the scans' locks: lock-source
// edges to one of threads; threads queued for a table-level, metadata or
// query cache lock whose statement names one of tables; and, without lock
// sources, the InnoDB waiters when one of threads holds the probable blocker.
func scanWaiters(w *window, threads []int64, tables []string) int {
	n := 0
	seen := map[int64]bool{}
	if l := w.snap.Locks; l != nil {
		for _, e := range l.Waits {
			if e.Blocker != 0 && slices.Contains(threads, e.Blocker) && !seen[e.Waiter] {
				seen[e.Waiter] = true
				n++
			}
		}
	}
	for _, p := range w.processes().inStates(lockWaitStates...) {
		if seen[p.ID] || slices.Contains(threads, p.ID) {
			continue
		}
		if anyTableIn(statementTables(p.Info), tables) {
			seen[p.ID] = true
			n++
		}
	}
	if w.snap.Locks == nil && w.snap.InnoDB != nil {
		trx := w.snap.InnoDB.Transactions.Trx
		if b := probableBlocker(trx); b != nil && slices.Contains(threads, b.ThreadID) {
			n += countLockWaits(trx)
		}
	}
	return n
}

// ownWaitersOf is scanWaiters for one running statement.
func ownWaitersOf(w *window, p *snapshot.Process, table string) int {
	var tables []string
	if table != "" {
		tables = []string{table}
	}
	return scanWaiters(w, []int64{p.ID}, tables)
}
