package snapshot

import (
	"strings"
	"time"
)

// LockKind says what a thread waits for.
type LockKind string

// Lock kinds.
const (
	LockRow        LockKind = "row"
	LockMetadata   LockKind = "metadata"
	LockTable      LockKind = "table"
	LockQueryCache LockKind = "query_cache"
)

// LockGlobal is a wait for a server-wide lock: the global read lock or
// backup lock a FLUSH TABLES WITH READ LOCK or BACKUP STAGE takes, the
// commit lock, or a table flush a backup's FLUSH started.
const LockGlobal LockKind = "global"

// Locks is who waits for whom at one instant, read by the lock collector
// only when something waits (nil otherwise). It holds edges and what the
// processlist does not say about the threads in them; LockTree joins the two
// into the tree every consumer shows, so a replay builds the same tree.
type Locks struct {
	Waits []LockWait `json:"waits,omitempty"`
	// Threads adds transaction detail for threads in Waits and for open
	// transactions (candidate holders), keyed by processlist id.
	Threads []LockThread `json:"threads,omitempty"`
	// Sources names where each kind was read from, e.g. "row":
	// "information_schema.INNODB_LOCK_WAITS"; an inferred kind says so.
	Sources map[LockKind]string `json:"sources,omitempty"`
	// Notes are one-line reasons why a part is inferred or missing, e.g.
	// "row locks: INNODB_LOCK_WAITS needs the PROCESS privilege".
	Notes []string `json:"notes,omitempty"`
	// At is when the lock read began; ReadAt is when each kind's source was
	// read (the processlist, the lock tables, the InnoDB status), so a view
	// can say how old each part of the tree is. Both are zero in captures
	// that do not say.
	At     time.Time              `json:"at,omitzero"`
	ReadAt map[LockKind]time.Time `json:"read_at,omitempty"`
}

// SourceAge is how much older than the lock read kind's source is; false
// when the source's time is not known.
func (l *Locks) SourceAge(kind LockKind) (time.Duration, bool) {
	if l == nil || l.At.IsZero() {
		return 0, false
	}
	at, ok := l.ReadAt[kind]
	if !ok || at.IsZero() {
		return 0, false
	}
	return max(0, l.At.Sub(at)), true
}

// LockWait is one edge: Waiter waits for a lock Blocker holds (or, for
// queued DDL and writers, has asked for first).
type LockWait struct {
	Waiter int64 `json:"waiter"`
	// Blocker is 0 when the holder was not seen (e.g. the query cache's).
	Blocker int64    `json:"blocker"`
	Kind    LockKind `json:"kind"`
	// Object is what is waited for: "shop.acct", "shop.acct PRIMARY", "query cache".
	Object string `json:"object,omitempty"`
	// Mode is the requested lock mode where the source says it (X, S, ...).
	Mode string `json:"mode,omitempty"`
	// WaitS is how long the waiter has waited, when the source says it.
	WaitS int64 `json:"wait_s,omitempty"`
	// Inferred: guessed (from the processlist, or from an InnoDB status
	// that does not print the holder), not read from a lock table.
	Inferred bool `json:"inferred,omitempty"`
	// BlockerTrx is the holder's InnoDB transaction id when it has no
	// thread (Blocker 0): an XA PREPARED transaction whose session ended, or
	// one recovered at start-up. Its detail is Locks.Trx(BlockerTrx).
	BlockerTrx string `json:"blocker_trx,omitempty"`
	// Record is the locked record where the source names it: the lock
	// tables' lock data ("1", the key) or the InnoDB status's "page 3 heap 2"
	// of space 5; waiters on one record share a holder.
	Record string `json:"record,omitempty"`
}

// LockThread is what the lock sources know of one thread.
type LockThread struct {
	ID int64 `json:"id"`
	// TrxAgeS is the age of its open transaction; -1 when it has none known.
	TrxAgeS    int64  `json:"trx_age_s"`
	TrxState   string `json:"trx_state,omitempty"`
	RowsLocked int64  `json:"rows_locked,omitempty"`
	// LastStatement is the statement it ran last, for a thread that runs
	// nothing now (an idle transaction), where the server keeps it.
	LastStatement string `json:"last_statement,omitempty"`
	// TrxID is the InnoDB transaction id, where the source gives it. A
	// transaction with no thread (ID 0) is known by it alone.
	TrxID string `json:"trx_id,omitempty"`
	// RowsModified is what its rollback has to undo (trx_rows_modified,
	// the InnoDB status's undo log entries).
	RowsModified int64 `json:"rows_modified,omitempty"`
	// XID is an XA transaction's id as XA RECOVER FORMAT='SQL' prints it
	// ('gtrid' or X'...',X'...',n), for a PREPARED one with no thread.
	XID string `json:"xid,omitempty"`
	// XIDCandidates lists the prepared xids when XA RECOVER lists several
	// and nothing says which is this transaction.
	XIDCandidates []string `json:"xid_candidates,omitempty"`
}

// TrxStateOr is the transaction's state, or def when unknown.
func (t *LockThread) TrxStateOr(def string) string {
	if t == nil || t.TrxState == "" {
		return def
	}
	return t.TrxState
}

// Prepared reports an XA transaction in the PREPARED state.
func (t *LockThread) Prepared() bool {
	return t != nil && strings.Contains(t.TrxState, "PREPARED")
}

// Ends says what ends a transaction with no thread: XA COMMIT or XA
// ROLLBACK of its xid when prepared, else the server's own rollback of a
// recovered transaction.
func (t *LockThread) Ends() string {
	if t == nil {
		return ""
	}
	if t.Prepared() {
		xid := t.XID
		if xid == "" {
			if len(t.XIDCandidates) > 0 {
				return "XA ROLLBACK <xid> or XA COMMIT <xid>, the xid one of " + strings.Join(t.XIDCandidates, ", ") +
					" (XA RECOVER)"
			}
			return "XA ROLLBACK <xid> or XA COMMIT <xid> (XA RECOVER lists the xid)"
		}
		return "XA ROLLBACK " + xid + " (or XA COMMIT " + xid + ")"
	}
	return "its rollback by the server (a recovered transaction: it ends when the background rollback does)"
}

// RootBlocker is a thread at the root of a lock tree, as findings and the
// report's JSON name it (findings[].root_blockers).
type RootBlocker struct {
	Thread int64  `json:"thread"`
	User   string `json:"user"`
	AgeS   int64  `json:"age_s"`
	// Waiters counts every thread waiting beneath it, directly or not.
	Waiters   int    `json:"waiters"`
	Statement string `json:"statement"`
	// Guessed counts the waiters hung beneath it by an inferred edge.
	Guessed int `json:"guessed,omitempty"`
	// TrxID is set for a holder with no thread (Thread 0), with XID and
	// Ends: what ends it (XA ROLLBACK 'xid').
	TrxID string `json:"trx_id,omitempty"`
	XID   string `json:"xid,omitempty"`
	Ends  string `json:"ends,omitempty"`
}

// Thread returns the detail for id, or nil.
func (l *Locks) Thread(id int64) *LockThread {
	if l == nil || id == 0 {
		return nil
	}
	for i := range l.Threads {
		if l.Threads[i].ID == id {
			return &l.Threads[i]
		}
	}
	return nil
}

// Trx returns the detail for the InnoDB transaction id, or nil.
func (l *Locks) Trx(id string) *LockThread {
	if l == nil || id == "" {
		return nil
	}
	for i := range l.Threads {
		if l.Threads[i].TrxID == id {
			return &l.Threads[i]
		}
	}
	return nil
}
