package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A transaction younger than LongTrxWarn is named when it costs something
// now: others wait on its row locks (it is the blocker of a LOCK WAIT), or
// purge cannot keep up while it stays open (the history list grows fast).
// The harmless idle reader keeps the 300 s threshold.

// historyName is MariaDB's status counter for the history list length;
// other servers print it in the InnoDB status only.
const historyName = "Innodb_history_list_length"

// costlyTransaction returns the transaction that costs others and what it
// costs, or nil.
func costlyTransaction(w *window, c *Config) (*snapshot.InnoDBTrx, string) {
	trx := w.snap.InnoDB.Transactions.Trx
	if b := probableBlocker(trx); b != nil && anyLockWait(trx) && acrossStatements(w, b) &&
		time.Duration(b.ActiveSeconds)*time.Second >= c.LongTrxBlockingMin {
		return b, fmt.Sprintf("%d transactions wait on its locks", countLockWaits(trx))
	}
	t := oldestActive(trx)
	if t == nil || time.Duration(t.ActiveSeconds)*time.Second < c.LongTrxHistoryMin {
		return nil, ""
	}
	if g, ok := historyGrowth(w, c); ok && g.perSec >= c.HistoryGrowthWarn {
		return t, fmt.Sprintf("the history list grows %s/s while it is open", fmtRate(g.perSec))
	}
	return nil, ""
}

// acrossStatements: the transaction is older than what its thread runs now
// (idle in Sleep, or a statement younger than it), so it was left open across
// statements. One long statement is full_scan_update's and the lock rules'
// to name; a thread missing from the processlist means the InnoDB status is
// older than it (read every few seconds) and proves nothing.
func acrossStatements(w *window, t *snapshot.InnoDBTrx) bool {
	p := w.processes().byID(t.ThreadID)
	if p == nil {
		return false
	}
	if p.Command != "Query" {
		return true
	}
	const slack = 2 // whole seconds on both sides
	return t.ActiveSeconds > p.TimeMS/1000+slack
}

func countLockWaits(trx []snapshot.InnoDBTrx) int {
	n := 0
	for _, t := range trx {
		if t.LockWait {
			n++
		}
	}
	return n
}

// growth is how the history list length moved over a stretch of the window.
type growth struct {
	from, to int64
	over     time.Duration
	perSec   float64
}

// historyGrowth compares the history list length now with the oldest frame
// within LongTrxHistoryMin that carries it.
func historyGrowth(w *window, c *Config) (growth, bool) {
	now, ok := historyLength(w.snap)
	if !ok {
		return growth{}, false
	}
	for _, f := range w.frames {
		s := f.Snapshot
		age := w.snap.Time.Sub(s.Time)
		if age > c.LongTrxHistoryMin || age <= 0 {
			continue
		}
		then, ok := historyLength(s)
		if !ok {
			continue
		}
		g := growth{from: then, to: now, over: age}
		g.perSec = float64(now-then) / age.Seconds()
		return g, true
	}
	return growth{}, false
}

// historyLength reads the history list length from status, else InnoDB's text.
func historyLength(s *snapshot.Snapshot) (int64, bool) {
	if v, ok := s.StatusInt(historyName); ok {
		return v, true
	}
	if s.InnoDB != nil && s.InnoDB.Transactions.Present {
		return s.InnoDB.Transactions.HistoryListLength, true
	}
	return 0, false
}

func historyGrowthLine(w *window, c *Config) string {
	g, ok := historyGrowth(w, c)
	if !ok || g.to <= g.from {
		return ""
	}
	return fmt.Sprintf("history list %s -> %s over %s (%s/s)", fmtCount(g.from), fmtCount(g.to),
		fmtDuration(g.over), fmtRate(g.perSec))
}
