package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// IDRowLockWaits names the findings of row_lock_waits: a contract (the
// README's findings table), stable, never reused.
const IDRowLockWaits = "row_lock_waits"

// RowLockConfig holds row_lock_waits' thresholds, each with its source and the
// trap it avoids.
type RowLockConfig struct {
	// RowLockWaitWarn: a lock waiter older than this (TRX-03, IT > 10 s green);
	// RowLockWaitCrit: or the server's innodb_lock_wait_timeout if lower
	// (IT red > 60 s).
	// Trap: the millisecond waits of a busy OLTP server. The age comes from the
	// sample itself (LOCK WAIT N sec), so it raises from one sample.
	RowLockWaitWarn time.Duration
	RowLockWaitCrit time.Duration

	// RowLockIdleHolderWait: a queue of RowLockIdleHolderQueue or more
	// behind a holder idle in its open transaction (Sleep) warns once its
	// oldest wait is this old, below RowLockWaitWarn: nothing on the server
	// will release the lock, so waiting for the 10-s floor only lets the
	// queue grow (12 transactions queued were named at 13 s). Trap: an
	// application's transaction idle between two statements for
	// milliseconds; the holder must be idle as long as the wait.
	RowLockIdleHolderWait  time.Duration
	RowLockIdleHolderQueue int
}

func (c *RowLockConfig) defaults() {
	*c = RowLockConfig{
		RowLockWaitWarn:        10 * time.Second,
		RowLockWaitCrit:        60 * time.Second,
		RowLockIdleHolderWait:  3 * time.Second,
		RowLockIdleHolderQueue: 2,
	}
}

// rowLockWaitsRule is row_lock_waits in the rules table (rule.go). One sample
// proves the duration (ACTIVE N sec, LOCK WAIT N sec), and a deadlock is an
// event.
var rowLockWaitsRule = rule{id: IDRowLockWaits, check: checkRowLockWaits, persist: persistFor(1*time.Second, 3*time.Second)}

// Transactions wait for row locks another transaction holds (TRX-03). With
// the InnoDB transaction list the wait ages are known: warn at RowLockWaitWarn
// (IT 10 s), critical at RowLockWaitCrit or innodb_lock_wait_timeout, when
// waiters start failing. Without it, Innodb_row_lock_current_waits only says
// that someone waits, so it is a warning at most.
func checkRowLockWaits(w *window, c *Config) verdict {
	if in := w.snap.InnoDB; in != nil && in.Transactions.Present {
		return rowLockWaitsFromTrx(w, c, in.Transactions)
	}
	if r := w.statusNA("Innodb_row_lock_current_waits"); r != "" {
		return notApplicable(r)
	}
	n, ok := w.snap.StatusInt("Innodb_row_lock_current_waits")
	if !ok || n <= 0 || !currentWaitsHeld(w) {
		return quiet()
	}
	ev := append([]string{fmt.Sprintf("Innodb_row_lock_current_waits %d", n)}, rowLockCounters(w)...)
	return withRootBlockers(w, raise(snapshot.Warning, fmt.Sprintf("%d transactions wait for row locks", n), ev,
		rowLockAdvice, nil), snapshot.LockRow)
}

const rowLockAdvice = "Find the blocking transaction (oldest one holding row locks, often an idle session " +
	"with an open transaction) and have it commit, or KILL it; keep transactions short and index the WHERE " +
	"columns of UPDATE/DELETE so they lock fewer rows."

func rowLockWaitsFromTrx(w *window, c *Config, tx snapshot.InnoDBTransactions) verdict {
	var waiting []snapshot.InnoDBTrx
	var oldest time.Duration
	for _, t := range tx.Trx {
		if t.LockWait {
			waiting = append(waiting, t)
			oldest = max(oldest, time.Duration(t.LockWaitSeconds)*time.Second)
		}
	}
	idle := idleHolder(w, c, tx.Trx, len(waiting), oldest)
	if len(waiting) == 0 || oldest < c.RowLockWaitWarn && idle == nil {
		return quiet()
	}
	sev := snapshot.Warning
	if oldest >= rowLockCritAge(w, c) {
		sev = snapshot.Critical
	}
	var ev []string
	var threads []int64
	for i, t := range waiting {
		threads = append(threads, t.ThreadID)
		if i < maxThreadLines {
			ev = append(ev, "waiting "+trxLine(w, t))
		}
	}
	if b := probableBlocker(tx.Trx); b != nil {
		ev = append(ev, "probable blocker "+trxLine(w, *b))
		threads = append(threads, b.ThreadID)
	}
	ev = append(append(ev, loadShare(w, snapshot.ClassRowLock)...), rowLockCounters(w)...)
	title := fmt.Sprintf("%d transactions wait for row locks, longest %s", len(waiting), fmtDuration(oldest))
	if idle != nil {
		title += fmt.Sprintf(", behind session %d idle in its transaction for %s", idle.ID, fmtMS(idle.TimeMS))
		ev = append(ev, "the holder is idle (Sleep) with its transaction open: nothing on the server ends it; "+
			"its client must commit or roll back, or it must be killed")
	}
	return withRootBlockers(w, raise(sev, title, ev, rowLockAdvice, threads), snapshot.LockRow)
}

// rowLockCritAge is the smaller of the configured age and the server's
// innodb_lock_wait_timeout, after which waiters fail.
func rowLockCritAge(w *window, c *Config) time.Duration {
	limit := c.RowLockWaitCrit
	if v, ok := w.snap.VarFloat("innodb_lock_wait_timeout"); ok && v > 0 {
		limit = min(limit, time.Duration(v*float64(time.Second)))
	}
	return limit
}

// probableBlocker is the oldest active transaction that holds row locks and
// does not wait itself: the usual culprit, though InnoDB's list cannot prove it.
func probableBlocker(trx []snapshot.InnoDBTrx) *snapshot.InnoDBTrx {
	var best *snapshot.InnoDBTrx
	for i := range trx {
		t := &trx[i]
		if t.LockWait || t.RowLocks == 0 {
			continue
		}
		if best == nil || t.ActiveSeconds > best.ActiveSeconds {
			best = t
		}
	}
	return best
}

// trxLine describes a transaction with its processlist thread, if known.
func trxLine(w *window, t snapshot.InnoDBTrx) string {
	s := fmt.Sprintf("trx %s active %d s", t.ID, t.ActiveSeconds)
	if t.LockWait {
		s += fmt.Sprintf(", waiting %d s for a lock", t.LockWaitSeconds)
	}
	if t.RowLocks > 0 {
		s += fmt.Sprintf(", %s row locks", fmtCount(t.RowLocks))
	}
	if p := w.processes().byID(t.ThreadID); p != nil {
		return s + ", " + threadLine(p)
	}
	if t.ThreadID > 0 {
		s += fmt.Sprintf(", thread %d", t.ThreadID)
	}
	if t.Query != "" {
		s += ": " + statement(t.Query)
	}
	return s
}

func rowLockCounters(w *window) []string {
	lines := w.counterLines("Innodb_row_lock_waits")
	waits, ok1 := w.rate("Innodb_row_lock_waits")
	ms, ok2 := w.rate("Innodb_row_lock_time")
	if ok1 && ok2 && waits > 0 {
		lines = append(lines, fmt.Sprintf("average row lock wait %.0f ms this interval", ms/waits))
	}
	return lines
}

// currentWaitsHeld: the gauge says nothing about how long anyone waited, so
// it must hold over the default onset's time itself (the rule raises from
// one frame when the transaction list gives wait ages).
func currentWaitsHeld(w *window) bool {
	return w.heldFor(w.cfg.DefaultPersistence.RaiseAfter, func(f *snapshot.Frame) bool {
		v, ok := f.Snapshot.StatusInt("Innodb_row_lock_current_waits")
		return ok && v > 0
	})
}

// idleHolder is the session holding the waiters' row locks while idle in its
// open transaction, when a queue of RowLockIdleHolderQueue waits on it for
// RowLockIdleHolderWait and it has been idle at least as long; else nil.
func idleHolder(w *window, c *Config, trx []snapshot.InnoDBTrx, waiters int, oldest time.Duration) *snapshot.Process {
	if waiters < c.RowLockIdleHolderQueue || oldest < c.RowLockIdleHolderWait {
		return nil
	}
	b := probableBlocker(trx)
	if b == nil {
		return nil
	}
	p := w.processes().byID(b.ThreadID)
	if p == nil || p.Command != "Sleep" || time.Duration(p.TimeMS)*time.Millisecond < oldest {
		return nil
	}
	return p
}
