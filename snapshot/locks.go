package snapshot

// LockKind says what a thread waits for.
type LockKind string

// Lock kinds.
const (
	LockRow        LockKind = "row"
	LockMetadata   LockKind = "metadata"
	LockTable      LockKind = "table"
	LockQueryCache LockKind = "query_cache"
)

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
	// Inferred: guessed from the processlist, not read from a lock table.
	Inferred bool `json:"inferred,omitempty"`
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
}

// Thread returns the detail for id, or nil.
func (l *Locks) Thread(id int64) *LockThread {
	if l == nil {
		return nil
	}
	for i := range l.Threads {
		if l.Threads[i].ID == id {
			return &l.Threads[i]
		}
	}
	return nil
}

// waitStates are processlist states of a thread waiting for a lock the
// processlist can name, with the kind of lock.
var waitStates = map[string]LockKind{
	"waiting for table metadata lock": LockMetadata,
	"waiting for table level lock":    LockTable,
	"locked":                          LockTable, // MySQL 5.1
	"waiting for table lock":          LockTable,
	"waiting for query cache lock":    LockQueryCache,
}

// WaitKind returns the lock kind p waits for by its state, "" if none.
func WaitKind(p *Process) LockKind {
	if p.Command == "Sleep" || p.State == "" {
		return ""
	}
	return waitStates[lowerASCII(p.State)]
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
