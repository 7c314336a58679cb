package baseline

import (
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// idleInTrx counts the transactions open on a session that runs no
// statement: the server waits for the client's next statement while the
// transaction holds its locks. On a busy OLTP server a client sends its
// next statement within a fraction of a millisecond, so few open
// transactions are caught between statements; when the clients' round
// trips slow (a congested or lossy link, a starved application host),
// nearly every open transaction is. It is read from the InnoDB status's
// transaction list (an ACTIVE entry with a thread and no statement, not
// waiting for a lock), and only in the frame it was read in: it is read
// every few seconds and carried between, and a carried list says nothing
// new.
func idleInTrx(r *reading) (float64, bool) {
	st := r.f.Snapshot.InnoDB
	if st == nil || !st.Transactions.Present {
		return 0, false
	}
	at := innoDBReadAt(st)
	if at.IsZero() || !at.After(r.prevInnoDB) {
		return 0, false
	}
	n := 0
	for i := range st.Transactions.Trx {
		trx := &st.Transactions.Trx[i]
		if trx.State == "ACTIVE" && trx.ThreadID > 0 && trx.Query == "" && !trx.LockWait {
			n++
		}
	}
	return float64(n), true
}

// innoDBReadAt is when an InnoDB status was read: the monitor's clock, or
// in a capture the status's own timestamp.
func innoDBReadAt(st *snapshot.InnoDBStatus) time.Time {
	if st == nil {
		return time.Time{}
	}
	if !st.ReadAt.IsZero() {
		return st.ReadAt
	}
	return st.Time
}
