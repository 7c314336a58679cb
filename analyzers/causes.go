package analyzers

import (
	"slices"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A cause link says that one standing finding is there because of another,
// so the DBA fixes the one at the root. Each link is proven from the same
// frame the findings came from, never from the IDs alone: two findings that
// merely stand together are not linked. The links (README "Root cause"):
//
//   - table_lock_contention <- full_scan_update: a thread waiting for a
//     table-level lock (now, or seen over the sighting window) names a table
//     the scanning UPDATE/DELETE changes, or a scanning thread is a root
//     blocker of the lock tree.
//   - query_cache_contention <- full_scan_update: a thread seen waiting for
//     the query cache lock over the sighting window names a scanned table (a
//     write invalidates that table's cached results under the global lock),
//     or a scanning statement was itself seen in a query cache state.
//   - row_lock_waits <- long_transaction: the long transaction is the one
//     holding row locks that others wait for: one of the lock tree's root
//     blockers when the lock-wait collector ran, else by InnoDB's list the
//     oldest non-waiting transaction holding row locks.
//   - metadata_lock_pileup <- long_transaction: the long transaction's
//     session is a root blocker of the lock tree, or without a tree it is not
//     itself waiting for the metadata lock and has been open longer than the
//     oldest waiter has waited (an open transaction keeps the metadata locks
//     of every table it touched until it ends).
//   - cpu_saturation <- full_scan_update / deep_offset_pagination: mysqld is
//     measured to be the process using the CPU (its /proc/<pid>/stat share;
//     a source without it links nothing), and those statements run.
//   - buffer_pool_miss <- full_scan_storm: the rows full scans read
//     (Handler_read_rnd_next) are at least ScanShareOfRowsRead of the rows
//     read this interval, so the pages missed are mostly the scans'.
type causeLink struct {
	effect, cause string
	holds         func(w *window, cause, effect *snapshot.Finding) bool
}

var causeLinks = []causeLink{
	{IDTableLockContention, IDFullScanUpdate, tableWaitersOnScannedTables},
	{IDQueryCacheContention, IDFullScanUpdate, qcWaitersOnScannedTables},
	{IDRowLockWaits, IDLongTransaction, longTrxHoldsWaitedRows},
	{IDMetadataLockPileup, IDLongTransaction, longTrxHoldsMetadata},
	{IDCPUSaturation, IDFullScanUpdate, mysqldBurnsCPU},
	{IDCPUSaturation, IDDeepOffsetPagination, mysqldBurnsCPU},
	{IDBufferPoolMiss, IDFullScanStorm, scansReadThePool},
}

// linkCauses fills CausedBy and CauseThreads of the findings standing at
// the window's last frame.
func linkCauses(w *window, fs []snapshot.Finding) {
	byID := make(map[string]int, len(fs))
	for i := range fs {
		byID[fs[i].ID] = i
		fs[i].CausedBy, fs[i].CauseThreads = nil, nil
	}
	for _, l := range causeLinks {
		ei, ok1 := byID[l.effect]
		ci, ok2 := byID[l.cause]
		if !ok1 || !ok2 || !safeLink(w, l, &fs[ci], &fs[ei]) {
			continue
		}
		e := &fs[ei]
		e.CausedBy = append(e.CausedBy, l.cause)
		for _, t := range fs[ci].Threads {
			if !slices.Contains(e.CauseThreads, t) {
				e.CauseThreads = append(e.CauseThreads, t)
			}
		}
	}
}

// safeLink runs one link's proof; a proof that panics on odd input links nothing.
func safeLink(w *window, l causeLink, cause, effect *snapshot.Finding) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return l.holds(w, cause, effect)
}

// scannedTables are the tables a full_scan_update finding names, else the
// target tables of its threads' statements.
func scannedTables(w *window, f *snapshot.Finding) []string {
	if len(f.Tables) > 0 {
		return f.Tables
	}
	var out []string
	for _, id := range f.Threads {
		if p := w.processes().byID(id); p != nil {
			if t := targetTable(p.Info); t != "" && !hasTable(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

func tableWaitersOnScannedTables(w *window, cause, effect *snapshot.Finding) bool {
	if roots, ok := rootBlockerThreads(effect); ok && slices.ContainsFunc(roots, func(id int64) bool {
		return slices.Contains(cause.Threads, id)
	}) {
		return true
	}
	tables := scannedTables(w, cause)
	return anyNamesTable(w.processes().inStates(tableLockStates...), tables) ||
		anyNamesTable(recentTableLockWaiters(w, w.cfg.SightingWindow), tables)
}

func qcWaitersOnScannedTables(w *window, cause, _ *snapshot.Finding) bool {
	tables := scannedTables(w, cause)
	if anyNamesTable(recentQCWaiters(w, w.cfg.SightingWindow), tables) {
		return true
	}
	for _, f := range w.recent(max(w.cfg.SightingWindow, 1)) {
		for i := range f.Snapshot.Processlist {
			p := &f.Snapshot.Processlist[i]
			if slices.Contains(cause.Threads, p.ID) && inQCState(p.State) {
				return true
			}
		}
	}
	return false
}

// inQCState: waiting for the query cache lock, or invalidating entries
// under it (MariaDB prints "invalidating query cache entries (table)").
func inQCState(state string) bool {
	s := strings.ToLower(state)
	return s == strings.ToLower(qcWaitState) || strings.HasPrefix(s, qcWorkStates[1])
}

// anyNamesTable reports whether a thread's statement names one of tables.
func anyNamesTable(ps []*snapshot.Process, tables []string) bool {
	if len(tables) == 0 {
		return false
	}
	for _, p := range ps {
		if anyTableIn(statementTables(p.Info), tables) {
			return true
		}
	}
	return false
}

// holderThread is the long_transaction finding's session.
func holderThread(f *snapshot.Finding) int64 {
	if len(f.Threads) == 0 {
		return 0
	}
	return f.Threads[0]
}

func longTrxHoldsWaitedRows(w *window, cause, effect *snapshot.Finding) bool {
	holder := holderThread(cause)
	if holder == 0 {
		return false
	}
	if roots, ok := rootBlockerThreads(effect); ok {
		return slices.Contains(roots, holder)
	}
	return slices.Contains(rowLockBlockers(w), holder)
}

// rootBlockerThreads are the lock tree's root blockers the effect names
// (the lock-tree work's lock-wait collector): when known they settle who holds the
// lock, and the guesses below are not used.
func rootBlockerThreads(effect *snapshot.Finding) ([]int64, bool) {
	if len(effect.RootBlockers) == 0 {
		return nil, false
	}
	out := make([]int64, 0, len(effect.RootBlockers))
	for _, r := range effect.RootBlockers {
		out = append(out, r.Thread)
	}
	return out, true
}

// rowLockBlockers are the sessions others wait on for row locks. InnoDB's
// transaction list cannot name the holder of each lock; the oldest
// non-waiting transaction holding row locks is the usual one.
func rowLockBlockers(w *window) []int64 {
	in := w.snap.InnoDB
	if in == nil || in.Transactions.LockWaits == 0 && !anyLockWait(in.Transactions.Trx) {
		return nil
	}
	if b := probableBlocker(in.Transactions.Trx); b != nil && b.ThreadID > 0 {
		return []int64{b.ThreadID}
	}
	return nil
}

func anyLockWait(trx []snapshot.InnoDBTrx) bool {
	return slices.ContainsFunc(trx, func(t snapshot.InnoDBTrx) bool { return t.LockWait })
}

func longTrxHoldsMetadata(w *window, cause, effect *snapshot.Finding) bool {
	holder := holderThread(cause)
	if roots, ok := rootBlockerThreads(effect); ok && holder != 0 {
		return slices.Contains(roots, holder)
	}
	in := w.snap.InnoDB
	if holder == 0 || in == nil {
		return false
	}
	if p := w.processes().byID(holder); p != nil && strings.EqualFold(p.State, mdlState) {
		return false
	}
	waiters := w.processes().inStates(mdlState)
	if len(waiters) == 0 {
		return false
	}
	for _, t := range in.Transactions.Trx {
		if t.ThreadID == holder {
			return t.ActiveSeconds*1000 >= waiters[0].TimeMS
		}
	}
	return false
}

func mysqldBurnsCPU(w *window, cause, _ *snapshot.Finding) bool {
	if len(cause.Threads) == 0 {
		return false
	}
	share, known := mysqldCPUShare(w)
	return known && share >= w.cfg.MysqldCPUShareMin
}

// scansReadThePool: full scans read most of the rows read this interval
// (MariaDB's Rows_read, MySQL's Innodb_rows_read). Point lookups on a cold
// or small pool miss too, and read few rows by scanning; a scan storm reads
// whole tables row after row.
func scansReadThePool(w *window, _, _ *snapshot.Finding) bool {
	scanned, ok1 := w.rate("Handler_read_rnd_next")
	read, ok2 := w.rate("Rows_read")
	if !ok2 {
		read, ok2 = w.rate("Innodb_rows_read")
	}
	return ok1 && ok2 && read > 0 && scanned >= w.cfg.ScanShareOfRowsRead*read
}
