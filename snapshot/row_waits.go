package snapshot

// RowWaitSet gathers row-lock waits as the server's lock tables list them
// (INNODB_LOCK_WAITS, data_lock_waits): one row per waiting request and lock
// ahead of it, so a request behind a holder and three queued requests is
// listed four times. It keeps one entry per waiting transaction; Edges turns
// them into the edges between threads the lock tree is built from. The live
// lock collector and the import of captured lock tables both use it, so a
// replay shows the tree the live run showed.
type RowWaitSet struct {
	byTrx map[string]*rowWaiter
	order []string
}

type rowWaiter struct {
	lockID   string
	obj      RowLockObject
	blockers []string // transaction ids, distinct
}

// RowLockObject is what a requested lock locks: "shop.acct PRIMARY", and
// its mode where the source says it.
type RowLockObject struct{ Object, Mode string }

// NewRowLockObject names a table's index lock ("" index: the table alone).
func NewRowLockObject(table, index, mode string) RowLockObject {
	o := RowLockObject{Object: table, Mode: mode}
	if index != "" {
		o.Object += " " + index
	}
	return o
}

// Add takes one wait: requesting transaction req waits (for its lock lockID,
// which locks obj) on blocking transaction blk. obj is kept from the
// request's first row.
func (a *RowWaitSet) Add(req, blk, lockID string, obj RowLockObject) {
	if a.byTrx == nil {
		a.byTrx = map[string]*rowWaiter{}
	}
	w := a.byTrx[req]
	if w == nil {
		w = &rowWaiter{lockID: lockID, obj: obj}
		a.byTrx[req] = w
		a.order = append(a.order, req)
	}
	for _, b := range w.blockers {
		if b == blk {
			return
		}
	}
	w.blockers = append(w.blockers, blk)
}

// Len is the number of waiting transactions.
func (a *RowWaitSet) Len() int { return len(a.order) }

// maxWaitingBlockers caps the edges kept for a waiter behind waiting
// requests only (a chain); behind a holder only the holder is kept.
const maxWaitingBlockers = 4

// Edges turns the gathered waits into edges between threads: thread maps a
// transaction id to its processlist id (0: unknown, the row is dropped),
// waitS a waiting thread to its wait age, objects a requested lock id to
// what it locks (overriding the object given to Add). A waiter is kept
// behind the holders it waits for that do not wait themselves; only a
// waiter with none (inside a chain) keeps edges to waiting requests.
func (a *RowWaitSet) Edges(thread map[string]int64, waitS map[int64]int64, objects map[string]RowLockObject) []LockWait {
	var out []LockWait
	for _, req := range a.order {
		w := a.byTrx[req]
		waiter := thread[req]
		if waiter == 0 {
			continue
		}
		obj := w.obj
		if o, ok := objects[w.lockID]; ok {
			obj = o
		}
		var holders, queued []int64
		for _, b := range w.blockers {
			id := thread[b]
			if id == 0 {
				continue
			}
			if _, waits := a.byTrx[b]; waits {
				queued = append(queued, id)
			} else {
				holders = append(holders, id)
			}
		}
		if len(holders) == 0 {
			holders = queued[:min(len(queued), maxWaitingBlockers)]
		}
		for _, h := range holders {
			out = append(out, LockWait{Waiter: waiter, Blocker: h, Kind: LockRow,
				Object: obj.Object, Mode: obj.Mode, WaitS: waitS[waiter]})
		}
	}
	return out
}
