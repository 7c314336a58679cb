package infer

import (
	"github.com/mytop-go/mytop-go/snapshot"
)

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
	obj      snapshot.RowLockObject
	blockers []string // transaction ids, distinct
}

// RowWaitThreads maps the transactions of a RowWaitSet to threads: Thread
// a transaction id to its processlist id, WaitS a waiting thread to its
// wait age, Threadless the transactions known to have no thread (an XA
// PREPARED one whose session ended, a recovered one), which are holders in
// their own right.
type RowWaitThreads struct {
	Thread     map[string]int64
	WaitS      map[int64]int64
	Threadless map[string]bool
}

// Add takes one wait: requesting transaction req waits (for its lock lockID,
// which locks obj) on blocking transaction blk. obj is kept from the
// request's first row.
func (a *RowWaitSet) Add(req, blk, lockID string, obj snapshot.RowLockObject) {
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

// Edges turns the gathered waits into edges between threads (t says
// which; a transaction neither threaded nor threadless is dropped), with
// objects mapping a requested lock id to what it locks (overriding the
// object given to Add). A waiter is kept behind the holders it waits for
// that do not wait themselves; only a waiter with none (inside a chain)
// keeps edges to waiting requests. A holder with no thread is an edge to
// its transaction (LockWait.BlockerTrx), never to some other session.
func (a *RowWaitSet) Edges(t RowWaitThreads, objects map[string]snapshot.RowLockObject) []snapshot.LockWait {
	type holder struct {
		id  int64
		trx string
	}
	var out []snapshot.LockWait
	for _, req := range a.order {
		w := a.byTrx[req]
		waiter := t.Thread[req]
		if waiter == 0 {
			continue
		}
		obj := w.obj
		if o, ok := objects[w.lockID]; ok {
			obj = o
		}
		var holders, queued []holder
		for _, b := range w.blockers {
			h := holder{id: t.Thread[b]}
			if h.id == 0 {
				if !t.Threadless[b] {
					continue
				}
				h.trx = b
			}
			if _, waits := a.byTrx[b]; waits {
				queued = append(queued, h)
			} else {
				holders = append(holders, h)
			}
		}
		if len(holders) == 0 {
			holders = queued[:min(len(queued), maxWaitingBlockers)]
		}
		kind := snapshot.LockRow
		if obj.Table {
			kind = snapshot.LockTable
		}
		for _, h := range holders {
			out = append(out, snapshot.LockWait{Waiter: waiter, Blocker: h.id, BlockerTrx: h.trx, Kind: kind,
				Object: obj.Object, Mode: obj.Mode, Record: obj.Record, WaitS: t.WaitS[waiter]})
		}
	}
	return out
}
