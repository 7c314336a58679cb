package analyzers

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// IDThreadsRunningHigh names the findings of threads_running_high: a contract
// (the README's findings table), stable, never reused.
const IDThreadsRunningHigh = "threads_running_high"

// ThreadsRunningConfig holds threads_running_high's thresholds, each with its
// source and the trap it avoids.
type ThreadsRunningConfig struct {
	// ThreadsRunningWarn: executing threads above this when the CPU count is
	// unknown (a remote server, a capture without host figures): CONC-01, PTS
	// default --threshold 25, which pt-stalk's docs say to adjust per system.
	// The monitor's own connection is not counted.
	// Trap: a counter the monitor moves: its own connection is running while it
	// reads status, so it is not counted.
	ThreadsRunningWarn int64

	// ThreadsRunningPerCPU: with the host's CPU count known, executing threads
	// above this many per CPU are a pile-up. 2 per CPU is where InnoDB's own
	// guidance put useful concurrency (MySQL 5.x manual, innodb_thread_concurrency:
	// "2 times the number of CPUs plus the number of disks") and PMM-C's
	// saturation point for a latch load (CONC-05: B = 2 × vCPUs).
	// Traps: Threads_running counts threads sleeping inside a statement
	// (SELECT SLEEP long polls: 50 of them on an idle 2-CPU host raised
	// "50 threads running") and threads queued behind a lock, which the lock
	// rules name with their holder; neither is counted as executing.
	ThreadsRunningPerCPU float64
}

func (c *ThreadsRunningConfig) defaults() {
	*c = ThreadsRunningConfig{
		ThreadsRunningWarn:   25,
		ThreadsRunningPerCPU: 2,
	}
}

// threadsRunningHighRule is threads_running_high in the rules table
// (rule.go). PTS --cycles 5 --interval 1 for state pile-ups (QC-01, LOCK-01,
// CONC-01).
var threadsRunningHighRule = rule{id: IDThreadsRunningHigh, check: checkThreadsRunningHigh, persist: persistFor(5*time.Second, 5*time.Second)}

// threads_running_high (CONC-01) counts the threads really executing a
// statement: Threads_running also counts a thread sleeping inside a statement
// (an application's long poll, SELECT SLEEP: "User sleep") and one queued
// behind a lock, which the lock rules name with their holder. The executing
// threads are judged against what the host's CPUs can run at once
// (ThreadsRunningPerCPU × CPUs); without host figures (a remote server, a
// capture without them) against pt-stalk's generic 25; with host figures
// that lack the CPU count it is not applicable, rather than judged against
// a guess the host's own figures could have replaced. The state
// histogram says what they do.
func checkThreadsRunningHigh(w *window, c *Config) verdict {
	if r := w.statusNA("Threads_running"); r != "" {
		return notApplicable(r)
	}
	if r := cpuCountNA(w); r != "" {
		return notApplicable(r)
	}
	running, ok := w.snap.StatusInt("Threads_running")
	if !ok {
		return quiet()
	}
	running-- // the monitor's own connection
	ex := executingThreads(w, running)
	limit, against := threadsRunningLimit(w, c)
	if ex.executing <= limit {
		return quiet()
	}
	title := fmt.Sprintf("%d threads executing", ex.executing)
	if h := w.snap.Host; h != nil && h.NumCPU > 0 {
		title += fmt.Sprintf(" on %d CPUs", h.NumCPU)
	}
	ev := []string{fmt.Sprintf("%d executing, warn above %d (%s); Threads_running %d (not counting this monitor)",
		ex.executing, limit, against, running)}
	if ex.set != nil {
		ev = appendNonEmpty(ev, ex.notCounted())
	} else {
		ev = append(ev, "no processlist in this source: threads sleeping in a statement are counted too")
	}
	pv := newProcView(ex.set)
	ev = appendNonEmpty(ev, stateHistogram(pv), w.hostFigures())
	ev = append(ev, topStatements(pv.running(0, "SELECT", "UPDATE", "DELETE", "INSERT", "REPLACE"))...)
	return raise(snapshot.Warning, title, ev,
		"More statements execute at once than the CPUs can run: \"Sending data\"/\"executing\" point at "+
			"statements to index or fix; cap concurrency in the connection pool or with thread_pool.", nil)
}

// threadsRunningLimit is the number of executing threads above which the
// rule raises, and what it is derived from.
func threadsRunningLimit(w *window, c *Config) (int64, string) {
	if h := w.snap.Host; h != nil && !h.Remote && h.NumCPU > 0 && c.ThreadsRunningPerCPU > 0 {
		return int64(c.ThreadsRunningPerCPU * float64(h.NumCPU)),
			fmt.Sprintf("%g per CPU on %d CPUs", c.ThreadsRunningPerCPU, h.NumCPU)
	}
	return c.ThreadsRunningWarn, "CPU count unknown: pt-stalk's default"
}

// notExecutingStates are states of a thread that runs a statement but waits:
// sleeping in it, or queued behind a lock another rule names.
var notExecutingStates = []string{
	"User sleep", "User lock", "Waiting for table metadata lock", "Waiting for table level lock", "Locked",
	"Waiting for query cache lock", "Waiting for global read lock", "Waiting for commit lock",
	"Waiting for backup lock", "Waiting for table flush", "Waiting for tables", "Waiting for someone to free space",
}

// executing is the count of executing threads and what was left out.
type executing struct {
	executing int64
	set       []snapshot.Process // the executing threads; nil without a processlist
	sleeping  int                // sleeping inside a statement
	locked    int                // queued behind a table, metadata, global or query cache lock
	rowLocked int                // waiting for an InnoDB row lock
}

func (e executing) notCounted() string {
	var parts []string
	if e.sleeping > 0 {
		parts = append(parts, fmt.Sprintf("%d sleeping in a statement (SELECT SLEEP, GET_LOCK)", e.sleeping))
	}
	if e.locked > 0 {
		parts = append(parts, fmt.Sprintf("%d queued behind a table/metadata/global/query cache lock", e.locked))
	}
	if e.rowLocked > 0 {
		parts = append(parts, fmt.Sprintf("%d waiting for a row lock", e.rowLocked))
	}
	if len(parts) == 0 {
		return ""
	}
	return "not counted: " + strings.Join(parts, ", ")
}

// executingThreads counts the processlist's client statements that are not
// waiting; without a processlist, Threads_running less the row-lock waiters.
func executingThreads(w *window, running int64) executing {
	list := w.snap.Processlist
	if len(list) == 0 && (w.unavailable(snapshot.CollectorProcesslist) != "" ||
		w.failedThisTick(snapshot.CollectorProcesslist) || running > 0 && !w.hasProcesslistCollector()) {
		n := running
		if v, ok := w.snap.StatusInt("Innodb_row_lock_current_waits"); ok {
			n -= v
		}
		return executing{executing: max(n, 0)}
	}
	rowWaiters := map[int64]bool{}
	if in := w.snap.InnoDB; in != nil {
		for _, t := range in.Transactions.Trx {
			if t.LockWait && t.ThreadID > 0 {
				rowWaiters[t.ThreadID] = true
			}
		}
	}
	if l := w.snap.Locks; l != nil {
		for _, wt := range l.Waits {
			if wt.Kind == snapshot.LockRow {
				rowWaiters[wt.Waiter] = true
			}
		}
	}
	e := executing{set: []snapshot.Process{}}
	for i := range list {
		p := &list[i]
		if !isRunningStatement(p) {
			continue
		}
		switch {
		case strings.EqualFold(p.State, "User sleep") || strings.EqualFold(p.State, "User lock"):
			e.sleeping++
		case slices.ContainsFunc(notExecutingStates, func(s string) bool { return strings.EqualFold(s, p.State) }):
			e.locked++
		case rowWaiters[p.ID]:
			e.rowLocked++
		default:
			e.executing++
			e.set = append(e.set, *p)
		}
	}
	e.countUnlistedRowWaits(w)
	return e
}

// countUnlistedRowWaits moves from the executing to the row-locked the
// row-lock waits the status counts beyond those the InnoDB transaction
// list and lock waits named this tick: a capture with a status every
// second but InnoDB's status at its start and end only, or a transaction
// list InnoDB cut short, would otherwise count 59 sessions queued on one
// row as 59 executing. Which of the listed ones wait is not known, so the
// listed set stays whole.
func (e *executing) countUnlistedRowWaits(w *window) {
	waits, ok := w.snap.StatusInt("Innodb_row_lock_current_waits")
	if !ok || waits <= int64(e.rowLocked) {
		return
	}
	n := min(waits-int64(e.rowLocked), e.executing)
	e.executing -= n
	e.rowLocked += int(n)
}

// hasProcesslistCollector reports whether this source reads the processlist
// at all (an empty list from it means nothing runs).
func (w *window) hasProcesslistCollector() bool {
	_, ok := w.snap.Collectors[snapshot.CollectorProcesslist]
	return ok
}

// stateHistogram is "states: Sending data 12, Waiting for query cache lock 9, …".
func stateHistogram(v *procView) string {
	type kv struct {
		state string
		n     int
	}
	var all []kv
	for s, idx := range v.byState {
		all = append(all, kv{s, len(idx)})
	}
	if len(all) == 0 {
		return ""
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].n != all[j].n {
			return all[i].n > all[j].n
		}
		return all[i].state < all[j].state
	})
	out := "states:"
	for i, e := range all {
		if i == 6 {
			out += " …"
			break
		}
		sep := ","
		if i == 0 {
			sep = ""
		}
		out += fmt.Sprintf("%s %s %d", sep, e.state, e.n)
	}
	return out
}
