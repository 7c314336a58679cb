package infer

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// MDLHold is one metadata lock a thread holds or waits for, as
// performance_schema.metadata_locks or MariaDB's METADATA_LOCK_INFO print it.
// The collector passes them to MetadataWaits; they are not stored.
type MDLHold struct {
	Thread int64
	Table  string // "db.table", lower case
	// Mode without the "MDL_" prefix: SHARED_READ, EXCLUSIVE, ...
	Mode    string
	Pending bool
	// Space is the namespace of a lock on no table (Table ""): SpaceBackup,
	// SpaceGlobal or SpaceCommit.
	Space string
}

// ddlVerbs take an exclusive metadata lock in the end, so every later
// statement on the table queues behind them while they wait.
var ddlVerbs = map[string]bool{
	"ALTER": true, "CREATE": true, "DROP": true, "TRUNCATE": true, "RENAME": true, "OPTIMIZE": true,
	"REPAIR": true, "ANALYZE": true, "LOCK": true, "FLUSH": true,
}

var writeVerbs = map[string]bool{
	"UPDATE": true, "DELETE": true, "INSERT": true, "REPLACE": true, "LOAD": true, "ALTER": true,
	"LOCK": true, "TRUNCATE": true, "OPTIMIZE": true, "REPAIR": true, "DROP": true, "RENAME": true,
}

// waiter is a thread in a lock-wait state with the tables its statement names.
type waiter struct {
	p      *snapshot.Process
	kind   snapshot.LockKind
	tables []string
	verb   string
}

// LockInference infers lock holders from one frame's processlist. It
// parses each statement once (its tables and verb) and indexes the running
// statements by table, so the work is linear in the processlist, not in
// waiters × threads: build one per frame and ask it for each kind.
type LockInference struct {
	ps     []snapshot.Process
	tables [][]string // per ps index
	verbs  []string
	// running lists, per table, the threads running (not waiting for a
	// lock) a statement on it, longest first in processlist order.
	running  map[string][]*snapshot.Process
	verbByID map[int64]string // of the running statements
}

// NewLockInference parses ps's statements for the inference.
func NewLockInference(ps []snapshot.Process) *LockInference {
	li := &LockInference{ps: ps, tables: make([][]string, len(ps)), verbs: make([]string, len(ps)),
		running: map[string][]*snapshot.Process{}, verbByID: map[int64]string{}}
	for i := range ps {
		p := &ps[i]
		if p.Info == "" || p.Command == "Sleep" {
			continue
		}
		li.tables[i], li.verbs[i] = snapshot.StatementTables(p.Info, p.DB), snapshot.StatementVerb(p.Info)
		if WaitKind(p) != "" {
			continue
		}
		li.verbByID[p.ID] = li.verbs[i]
		for _, t := range li.tables[i] {
			li.running[t] = append(li.running[t], p)
		}
	}
	for _, r := range li.running {
		sortProcsByTime(r)
	}
	return li
}

func (li *LockInference) waitersOf(kind snapshot.LockKind) []waiter {
	var out []waiter
	for i := range li.ps {
		p := &li.ps[i]
		if WaitKind(p) == kind {
			out = append(out, waiter{p: p, kind: kind, tables: li.tables[i], verb: li.verbs[i]})
		}
	}
	return out
}

// runningOn are threads running a statement (not waiting for a lock) that
// names one of tables, longest-running first in processlist order.
func (li *LockInference) runningOn(tables []string, except int64) []*snapshot.Process {
	var out []*snapshot.Process
	for _, t := range tables {
		for _, p := range li.running[t] {
			if p.ID != except && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	if len(tables) > 1 {
		sortProcsByTime(out)
	}
	return out
}

// sortProcsByTime sorts longest-running first, keeping processlist order
// among equals.
func sortProcsByTime(ps []*snapshot.Process) {
	slices.SortStableFunc(ps, func(a, b *snapshot.Process) int { return cmp.Compare(b.TimeMS, a.TimeMS) })
}

// queuedAhead is the waiter of ws that waits longest on one of w's tables
// and whose request is served first: a writer (table locks) or DDL
// (metadata), which every later request waits behind. ordered requires it
// to have waited at least as long as w. Metadata waits are not ordered:
// MariaDB restarts an ALTER's clock when it goes from preparing to waiting
// for its exclusive lock, so it can show less time than the SELECTs queued
// behind it; and should w have come first, it waits for whatever the DDL
// waits for, so the root is the same.
func queuedAhead(w waiter, ws []waiter, ordered bool, first func(waiter) bool) *snapshot.Process {
	var best *snapshot.Process
	for _, o := range ws {
		if o.p.ID == w.p.ID || !first(o) || !sharesTable(o.tables, w.tables) || ordered && o.p.TimeMS < w.p.TimeMS {
			continue
		}
		if best == nil || o.p.TimeMS > best.TimeMS {
			best = o.p
		}
	}
	return best
}

func objectOf(tables []string) string {
	if len(tables) == 0 {
		return ""
	}
	return strings.Join(tables, ", ")
}

// tableWaits infers who holds the table-level locks (MyISAM, Aria, MEMORY,
// LOCK TABLES) that processlist threads wait for: a writer queued ahead of a
// reader, else a running statement on the same table (a writer, for a
// waiting reader), else a LOCK TABLES holder among holds, else nobody seen.
func tableWaits(ps []snapshot.Process, holds []MDLHold) []snapshot.LockWait {
	return NewLockInference(ps).TableWaits(holds)
}

// TableWaits is tableWaits over the inference's processlist.
func (li *LockInference) TableWaits(holds []MDLHold) []snapshot.LockWait {
	ws := li.waitersOf(snapshot.LockTable)
	var out []snapshot.LockWait
	for _, w := range ws {
		e := snapshot.LockWait{Waiter: w.p.ID, Kind: snapshot.LockTable, Object: objectOf(w.tables), WaitS: w.p.TimeMS / 1000,
			Inferred: true}
		writer := writeVerbs[w.verb]
		if b := queuedAhead(w, ws, true, func(o waiter) bool { return writeVerbs[o.verb] }); b != nil && !writer {
			e.Blocker = b.ID
		} else if b := li.conflictingRunner(w, writer); b != nil {
			e.Blocker = b.ID
		} else if id := tableLockHolder(holds, w); id != 0 {
			e.Blocker = id
		}
		out = append(out, e)
	}
	return out
}

func (li *LockInference) conflictingRunner(w waiter, writer bool) *snapshot.Process {
	for _, p := range li.runningOn(w.tables, w.p.ID) {
		if writer || writeVerbs[li.verbOf(p)] {
			return p
		}
	}
	return nil
}

// verbOf is p's statement verb, parsed once.
func (li *LockInference) verbOf(p *snapshot.Process) string {
	if v, ok := li.verbByID[p.ID]; ok {
		return v
	}
	return snapshot.StatementVerb(p.Info)
}

// tableLockHolder finds a LOCK TABLES session by its metadata lock.
func tableLockHolder(holds []MDLHold, w waiter) int64 {
	for _, h := range holds {
		if h.Pending || h.Thread == w.p.ID || !slices.Contains(w.tables, h.Table) {
			continue
		}
		switch h.Mode {
		case "SHARED_NO_READ_WRITE", "SHARED_NO_WRITE", "SHARED_READ_ONLY", "EXCLUSIVE":
			return h.Thread
		}
	}
	return 0
}

// queryCacheStates are what a thread inside the query cache shows.
func insideQueryCache(p *snapshot.Process) bool {
	if p.Command == "Sleep" || WaitKind(p) != "" {
		return false
	}
	s := snapshot.LowerASCII(p.State)
	return strings.Contains(s, "query cache") || strings.Contains(s, "cached result")
}

// QueryCacheWaits infers the holder of the query cache lock: the thread seen
// inside the cache (checking, storing, invalidating), else nobody seen.
func QueryCacheWaits(ps []snapshot.Process) []snapshot.LockWait {
	var holder *snapshot.Process
	for i := range ps {
		if p := &ps[i]; insideQueryCache(p) && (holder == nil || p.TimeMS > holder.TimeMS) {
			holder = p
		}
	}
	var out []snapshot.LockWait
	for i := range ps {
		w := &ps[i]
		if WaitKind(w) != snapshot.LockQueryCache {
			continue
		}
		e := snapshot.LockWait{Waiter: w.ID, Kind: snapshot.LockQueryCache, Object: "query cache", WaitS: w.TimeMS / 1000,
			Inferred: true}
		if holder != nil {
			e.Blocker = holder.ID
		}
		out = append(out, e)
	}
	return out
}

// MetadataWaits builds the metadata-lock edges for the processlist's
// waiters. A statement queued behind a waiting DDL on its table waits for
// the DDL. Otherwise, with holds (the server's lock list; nil when there is
// none), the waiter waits for the holders of a conflicting lock on its
// table; without them, or when none is listed, the holder is inferred: a
// statement running on the table, else the oldest open transaction (trx).
func MetadataWaits(ps []snapshot.Process, holds []MDLHold, trx []snapshot.LockThread) []snapshot.LockWait {
	return NewLockInference(ps).MetadataWaits(holds, trx)
}

// MetadataWaits is MetadataWaits over the inference's processlist.
func (li *LockInference) MetadataWaits(holds []MDLHold, trx []snapshot.LockThread) []snapshot.LockWait {
	ws := li.waitersOf(snapshot.LockMetadata)
	for i := range ws {
		if t := pendingTables(holds, ws[i].p.ID); len(t) > 0 {
			ws[i].tables = t
		}
	}
	var out []snapshot.LockWait
	for _, w := range ws {
		base := snapshot.LockWait{Waiter: w.p.ID, Kind: snapshot.LockMetadata, Object: objectOf(w.tables), WaitS: w.p.TimeMS / 1000}
		if b := queuedAhead(w, ws, false, func(o waiter) bool { return ddlVerbs[o.verb] }); b != nil && !ddlVerbs[w.verb] {
			e := base
			e.Blocker = b.ID
			out = append(out, e)
			continue
		}
		if hs := mdlHolders(holds, w); len(hs) > 0 {
			for _, id := range hs {
				e := base
				e.Blocker = id
				out = append(out, e)
			}
			continue
		}
		e := base
		e.Inferred = true
		e.Blocker = li.inferredMDLHolder(w, ws, trx)
		out = append(out, e)
	}
	return out
}

func pendingTables(holds []MDLHold, id int64) []string {
	var t []string
	for _, h := range holds {
		if h.Pending && h.Thread == id && h.Space == "" && !slices.Contains(t, h.Table) {
			t = append(t, h.Table)
		}
	}
	return t
}

// mdlHolders are the threads holding a granted lock on w's tables that
// conflicts with what w asks for: anything for DDL, else the locks that keep
// readers and writers out.
func mdlHolders(holds []MDLHold, w waiter) []int64 {
	var out []int64
	for _, h := range holds {
		if h.Pending || h.Thread == w.p.ID || !slices.Contains(w.tables, h.Table) || containsID(out, h.Thread) {
			continue
		}
		if ddlVerbs[w.verb] || blocksDML(h.Mode, writeVerbs[w.verb]) {
			out = append(out, h.Thread)
		}
	}
	return out
}

func blocksDML(mode string, writer bool) bool {
	switch mode {
	case "EXCLUSIVE", "SHARED_NO_READ_WRITE":
		return true
	case "SHARED_NO_WRITE", "SHARED_READ_ONLY":
		return writer
	}
	return false
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// inferredMDLHolder guesses who holds w's table: a statement running on it,
// else the oldest open transaction of a thread not itself waiting for a
// metadata lock; 0 when there is no candidate.
func (li *LockInference) inferredMDLHolder(w waiter, ws []waiter, trx []snapshot.LockThread) int64 {
	if r := li.runningOn(w.tables, w.p.ID); len(r) > 0 {
		return r[0].ID
	}
	waiting := map[int64]bool{}
	for _, o := range ws {
		waiting[o.p.ID] = true
	}
	var best *snapshot.LockThread
	for i := range trx {
		t := &trx[i]
		if t.TrxAgeS < 0 || waiting[t.ID] || t.ID == 0 {
			continue
		}
		if best == nil || t.TrxAgeS > best.TrxAgeS {
			best = t
		}
	}
	if best == nil {
		return 0
	}
	return best.ID
}

// InnoDBRowWaits infers row-lock edges from the TRANSACTIONS section when no
// lock table is readable: InnoDB names the waiters, not whom they wait for,
// so the blocker is the oldest active transaction holding row locks that
// does not wait itself.
func InnoDBRowWaits(tx snapshot.InnoDBTransactions) []snapshot.LockWait {
	var blocker *snapshot.InnoDBTrx
	for i := range tx.Trx {
		t := &tx.Trx[i]
		if t.LockWait || t.RowLocks == 0 || !strings.HasPrefix(t.State, "ACTIVE") {
			continue
		}
		if blocker == nil || t.ActiveSeconds > blocker.ActiveSeconds {
			blocker = t
		}
	}
	var out []snapshot.LockWait
	for _, t := range tx.Trx {
		if !t.LockWait || t.ThreadID == 0 {
			continue
		}
		e := snapshot.LockWait{Waiter: t.ThreadID, Kind: snapshot.LockRow, WaitS: t.LockWaitSeconds, Inferred: true}
		if blocker != nil {
			e.Blocker = blocker.ThreadID
			if blocker.ThreadID == 0 {
				e.BlockerTrx = blocker.ID // a transaction with no thread, never some session
			}
		}
		out = append(out, e)
	}
	return out
}

// InnoDBLockThreads lists the transactions of the TRANSACTIONS section as
// lock-thread detail.
func InnoDBLockThreads(tx snapshot.InnoDBTransactions) []snapshot.LockThread {
	var out []snapshot.LockThread
	for _, t := range tx.Trx {
		if !strings.HasPrefix(t.State, "ACTIVE") {
			continue
		}
		out = append(out, snapshot.LockThread{ID: t.ThreadID, TrxID: t.ID, TrxAgeS: t.ActiveSeconds, TrxState: t.State,
			RowsLocked: t.RowLocks, RowsModified: t.UndoEntries})
	}
	return out
}

// sharesTable reports whether two table lists meet.
func sharesTable(a, b []string) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}
