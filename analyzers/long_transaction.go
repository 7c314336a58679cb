package analyzers

import (
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// IDLongTransaction names the findings of long_transaction: a contract (the
// README's findings table), stable, never reused.
const IDLongTransaction = "long_transaction"

// LongTrxConfig holds long_transaction's thresholds, each with its source and the
// trap it avoids.
type LongTrxConfig struct {
	// LongTrxWarn/Crit: oldest ACTIVE transaction (TRX-01, IT > 300 s yellow,
	// > 600 s red).
	// Trap: the harmless idle reader (a reporting session in REPEATABLE READ)
	// is named only past LongTrxWarn; the age is ACTIVE N sec of one sample,
	// so no persistence is needed to prove it.
	LongTrxWarn time.Duration
	LongTrxCrit time.Duration

	// LongTrxBlockingMin: a younger transaction is named when others wait on
	// its row locks and it has been open this long (= RowLockWaitWarn, so a
	// row_lock_waits finding has its holder named beside it). Trap: the
	// sub-second waits of normal contention.
	LongTrxBlockingMin time.Duration

	// LongTrxHistoryMin and HistoryGrowthWarn: a transaction open this long
	// while the history list grew at least this many entries per second over
	// the same stretch (the root-cause proofs: 0 -> 19,787 in 90 s = 220/s; UNKNOWN).
	// Trap: the history list's rise and fall under writes, which purge follows
	// within seconds; the length alone is a level normal at rest.
	LongTrxHistoryMin time.Duration
	HistoryGrowthWarn float64
}

func (c *LongTrxConfig) defaults() {
	*c = LongTrxConfig{
		LongTrxWarn:        300 * time.Second,
		LongTrxCrit:        600 * time.Second,
		LongTrxBlockingMin: 10 * time.Second,
		LongTrxHistoryMin:  60 * time.Second,
		HistoryGrowthWarn:  100,
	}
}

// longTransactionRule is long_transaction in the rules table (rule.go). One
// sample proves the duration (ACTIVE N sec, LOCK WAIT N sec), and a deadlock
// is an event.
var longTransactionRule = rule{id: IDLongTransaction, check: checkLongTransaction, persist: persistFor(1*time.Second, 3*time.Second)}

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
	// Routine work that blocks no one is named at info (long_transaction_routine.go).
	if age > c.LongTrxWarn {
		if r := harmlessRoutineTrx(w, oldest); r != nil {
			return routineOrAppTrx(w, c, oldest, r, age, "")
		}
		return longTrxVerdict(w, c, oldest, age, "")
	}
	if t, cost := costlyTransaction(w, c); t != nil {
		if r := harmlessRoutineTrx(w, t); r != nil {
			return routineTrxVerdict(w, c, t, r, time.Duration(t.ActiveSeconds)*time.Second, cost)
		}
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
	advice := "Have the session commit or roll back (or KILL it; the rollback takes time); fix the application " +
		"path that leaves transactions open, and keep batch jobs to short transactions."
	if r := routineOfTrx(w, t); r != nil {
		// Routine work others wait on: say whose it is, and stop it rather than kill a session of it.
		title = r.Tool + "'s " + title
		ev = append(ev, "routine work: "+r.Name()+"; others wait on it")
		advice = fmt.Sprintf("%s is routine work, but others wait on it now: let it finish if it is about to, "+
			"else stop the job (not one of its sessions) and run it off-peak or from a replica.", r.Tool)
	}
	return raise(sev, title, ev, advice, threads)
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
