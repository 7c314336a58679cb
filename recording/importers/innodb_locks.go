package importers

import (
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// A capture with InnoDB status but no lock listing of its own (a saved SHOW
// ENGINE INNODB STATUS, a pt-stalk collection without -lock-waits) still
// says who waits: each waiter's lock is printed under "TRX HAS BEEN WAITING",
// row locks and table locks (AUTO-INC, LOCK TABLES) alike. Those become the
// second's Locks as the live collector's InnoDB-status fallback makes them
// (snapshot.InnoDBLockWaits), so the lock tree, the load view and the lock
// rules work on such a capture. Only a status of that second (or carried
// carrySeconds) stands: the status is sampled rarely, and an older one would
// show waits that have long ended.

// innoDBLocks is the Locks of one InnoDB status, nil when nothing waits.
func innoDBLocks(st *snapshot.InnoDBStatus) *snapshot.Locks {
	if st == nil || st.Raw == "" || st.Transactions.LockWaits == 0 {
		return nil
	}
	waits, threads, truncated := parse.InnoDBLockWaits(st.Raw)
	if len(waits) == 0 {
		return nil
	}
	l := &snapshot.Locks{Waits: waits, Threads: threads, Sources: parse.InnoDBWaitSources(waits)}
	if truncated {
		l.Notes = append(l.Notes, "the InnoDB status was cut short: only the waiters it lists are shown")
	}
	return l
}

// locksFromInnoDB reports whether the capture's lock part comes from its
// InnoDB statuses: it has some, and no lock listing of its own.
func (tl *timeline) locksFromInnoDB() bool { return !tl.locksRead && len(tl.innodb) > 0 }

// innoDBLocksAt sets second t's Locks from the InnoDB status of second at
// (ok: there is one at or before t), or marks the part stale when that
// status is too old to say who waits now.
func (tl *timeline) innoDBLocksAt(s *snapshot.Snapshot, t, at int64, ok bool) {
	switch {
	case !ok || t-at >= carrySeconds:
		s.Collectors[snapshot.CollectorLocks] = snapshot.CollectorState{Stale: true,
			Error: "no InnoDB status in this second to read lock waits from"}
	default:
		s.Locks = innoDBLocks(tl.innodb[at])
		if at != t {
			from := time.Unix(at, 0).In(tl.loc).Format(time.TimeOnly)
			s.Collectors[snapshot.CollectorLocks] = snapshot.CollectorState{Stale: true, Error: "carried from " + from}
		}
	}
}
