package analyzers

import (
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A dump or a hot backup keeps one transaction open for its whole run by
// design (TRX-01 trap: "mysqldump --single-transaction/backup sessions are
// long by design (label them)"). While no one waits on its locks it is named
// at info, as the tool's, with no advice to kill it; others waiting on it
// make it the ordinary finding again, named as the tool's.

// routineOfTrx is the routine session that owns t, or nil.
func routineOfTrx(w *window, t *snapshot.InnoDBTrx) *routineSession {
	if t == nil {
		return nil
	}
	return w.routine().byID(t.ThreadID)
}

// harmlessRoutineTrx is t's routine session when no one waits on t's locks.
func harmlessRoutineTrx(w *window, t *snapshot.InnoDBTrx) *routineSession {
	r := routineOfTrx(w, t)
	if r == nil || trxWaiters(w, t) > 0 {
		return nil
	}
	return r
}

// trxWaiters counts the sessions waiting on t's locks: the lock sources'
// edges to its thread, else the InnoDB list's waiters when t is their
// probable blocker.
func trxWaiters(w *window, t *snapshot.InnoDBTrx) int {
	if l := w.snap.Locks; l != nil && len(l.Waits) > 0 {
		n := 0
		for _, e := range l.Waits {
			if e.Blocker == t.ThreadID {
				n++
			}
		}
		return n
	}
	trx := w.snap.InnoDB.Transactions.Trx
	if b := probableBlocker(trx); b != nil && b.ThreadID == t.ThreadID && anyLockWait(trx) {
		return countLockWaits(trx)
	}
	return 0
}

// routineOrAppTrx names the oldest application transaction when it too is
// past LongTrxWarn (the routine one does not hide it), else the routine one.
func routineOrAppTrx(w *window, c *Config, t *snapshot.InnoDBTrx, r *routineSession, age time.Duration, cost string) verdict {
	var app *snapshot.InnoDBTrx
	trx := w.snap.InnoDB.Transactions.Trx
	for i := range trx {
		x := &trx[i]
		if routineOfTrx(w, x) != nil || x == t {
			continue
		}
		if strings.HasPrefix(x.State, "ACTIVE") && (app == nil || olderTrx(x, app)) {
			app = x
		}
	}
	if app != nil && time.Duration(app.ActiveSeconds)*time.Second > c.LongTrxWarn {
		v := longTrxVerdict(w, c, app, time.Duration(app.ActiveSeconds)*time.Second, "")
		v.finding.Evidence = append(v.finding.Evidence, "older still, routine and blocking no one: "+trxLine(w, *t))
		return v
	}
	return routineTrxVerdict(w, c, t, r, age, cost)
}

// routineTrxVerdict is the info finding for a routine transaction.
func routineTrxVerdict(w *window, c *Config, t *snapshot.InnoDBTrx, r *routineSession, age time.Duration, cost string) verdict {
	in := w.snap.InnoDB
	title := fmt.Sprintf("%s's transaction open for %s (session %d); it blocks no one", r.Tool, fmtDuration(age), r.ID)
	ev := []string{"routine work: " + r.Name(), trxLine(w, *t)}
	if why := routineTrxWhy(r.Tool); why != "" {
		ev = append(ev, why)
	}
	ev = append(ev, "no session waits on its locks")
	if cost != "" {
		ev = append(ev, cost)
	}
	ev = append(ev, fmt.Sprintf("%d active transactions, history list length %s", in.Transactions.Active,
		fmtCount(in.Transactions.HistoryListLength)))
	ev = appendNonEmpty(ev, historyGrowthLine(w, c))
	return raise(snapshot.Info, title, ev, fmt.Sprintf("Nothing to do: it ends when the %s run ends. If the "+
		"history list keeps growing while it runs (purge_lag), schedule it off-peak or run it against a replica.",
		r.Tool), []int64{t.ThreadID})
}

func routineTrxWhy(tool string) string {
	switch tool {
	case toolDump:
		return "a --single-transaction dump reads every table from one consistent snapshot, so its transaction lasts the whole dump"
	case toolBackup, toolXtraBackup:
		return "a hot backup keeps its session open for the whole copy"
	case toolPTOSC, toolGhost:
		return "an online schema change copies the table in chunks for its whole run"
	}
	return ""
}
