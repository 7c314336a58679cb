package analyzers

import (
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A transaction open for minutes holds its locks and an old read view that
// stops purge (TRX-01; IT colours > 300 s yellow, > 600 s red). An open
// transaction on a sleeping connection is usually an application that forgot
// to commit.
func checkLongTransaction(w *window, c *Config) verdict {
	if r := innodbNA(w); r != "" {
		return notApplicable(r)
	}
	in := w.snap.InnoDB
	if in == nil || !in.Transactions.Present {
		return quiet()
	}
	oldest := oldestActive(in.Transactions.Trx)
	age := time.Duration(in.Transactions.OldestActiveSeconds) * time.Second
	if oldest != nil {
		age = max(age, time.Duration(oldest.ActiveSeconds)*time.Second)
	}
	// Past LongTrxWarn a transaction is worth naming whatever it does; before
	// that only when it costs something now (long_transaction_cost.go).
	if age > c.LongTrxWarn {
		return longTrxVerdict(w, c, oldest, age, "")
	}
	if t, cost := costlyTransaction(w, c); t != nil {
		return longTrxVerdict(w, c, t, time.Duration(t.ActiveSeconds)*time.Second, cost)
	}
	return quiet()
}

// longTrxVerdict names transaction t, open for age; cost says what it costs
// others now, when that is why it is raised early.
func longTrxVerdict(w *window, c *Config, t *snapshot.InnoDBTrx, age time.Duration, cost string) verdict {
	in := w.snap.InnoDB
	sev := snapshot.Warning
	if age > c.LongTrxCrit {
		sev = snapshot.Critical
	}
	var ev []string
	var threads []int64
	title := fmt.Sprintf("transaction open for %s", fmtDuration(age))
	if t != nil {
		ev = append(ev, "oldest "+trxLine(w, *t))
		if cost != "" {
			ev[0] = trxLine(w, *t)
		}
		threads = append(threads, t.ThreadID)
		if p := w.processes().byID(t.ThreadID); p != nil && p.Command == "Sleep" {
			title += fmt.Sprintf(" on idle connection %d", p.ID)
			ev = append(ev, "its connection is idle (Sleep): the transaction was left open")
		} else if t.ThreadID > 0 {
			title += fmt.Sprintf(" (thread %d)", t.ThreadID)
		}
	}
	if cost != "" {
		title += "; " + cost
		ev = append(ev, "raised before "+fmtDuration(c.LongTrxWarn)+" because it costs others now: "+cost)
	}
	ev = append(ev, fmt.Sprintf("%d active transactions, history list length %s", in.Transactions.Active,
		fmtCount(in.Transactions.HistoryListLength)))
	ev = appendNonEmpty(ev, historyGrowthLine(w, c))
	return raise(sev, title, ev,
		"Have the session commit or roll back (or KILL it; the rollback takes time); fix the application "+
			"path that leaves transactions open, and keep batch jobs to short transactions.", threads)
}

// oldestActive returns the longest ACTIVE transaction in the list, or nil.
func oldestActive(trx []snapshot.InnoDBTrx) *snapshot.InnoDBTrx {
	var best *snapshot.InnoDBTrx
	for i := range trx {
		t := &trx[i]
		if !strings.HasPrefix(t.State, "ACTIVE") {
			continue
		}
		if best == nil || olderTrx(t, best) {
			best = t
		}
	}
	return best
}

// olderTrx orders by age; ages are whole seconds, so a blocker and the
// waiters it caught within the same second tie, and the one not waiting is
// the one to name, then the lower (earlier) transaction id.
func olderTrx(a, b *snapshot.InnoDBTrx) bool {
	if a.ActiveSeconds != b.ActiveSeconds {
		return a.ActiveSeconds > b.ActiveSeconds
	}
	if a.LockWait != b.LockWait {
		return !a.LockWait
	}
	if len(a.ID) != len(b.ID) {
		return len(a.ID) < len(b.ID)
	}
	return a.ID < b.ID
}
