package analyzers

import (
	"fmt"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Table-level locks (MyISAM/Aria/MEMORY, LOCK TABLES) serialise readers behind
// writers (LOCK-02): threads queue in "Waiting for table level lock" ("Locked"
// on 5.1), and Table_locks_waited grows against Table_locks_immediate.
var tableLockStates = []string{"Waiting for table level lock", "Locked"}

func checkTableLockContention(w *window, c *Config) verdict {
	if r := w.unavailable(snapshot.CollectorProcesslist); r != "" && len(w.snap.Status) == 0 {
		return notApplicable(r)
	}
	waiters := w.processes().inStates(tableLockStates...)
	share, rated := tableLockImmediateShare(w, c)
	lowShare := rated && share < c.TableLocksImmediateWarn
	if len(waiters) == 0 && !lowShare {
		return quiet()
	}
	title := fmt.Sprintf("%d threads wait for table-level locks", len(waiters))
	if len(waiters) == 0 {
		title = fmt.Sprintf("only %.1f %% of table locks granted at once", share)
	}
	var ev []string
	if len(waiters) > 0 {
		ev = append(ev, fmt.Sprintf("%d threads in %q/%q, oldest %s", len(waiters), tableLockStates[0],
			tableLockStates[1], fmtMS(waiters[0].TimeMS)))
		ev = append(ev, threadLines(waiters)...)
	}
	if rated {
		ev = append(ev, fmt.Sprintf("%.1f %% of table locks immediate this interval (warn below %.0f %%)", share,
			c.TableLocksImmediateWarn))
	}
	ev = append(ev, w.counterLines("Table_locks_waited", "Table_locks_immediate")...)
	holders := excludeStates(w.processes().running(longStatementMS, "UPDATE", "DELETE", "INSERT", "REPLACE", "SELECT",
		"ALTER", "LOCK"), tableLockStates...)
	for _, l := range threadLines(holders[:min(len(holders), maxContextLines)]) {
		ev = append(ev, "running: "+l)
	}
	return withRootBlockers(w, raise(snapshot.Warning, title, ev,
		"Find the long statement holding the table (listed as running) and speed it up with an index; "+
			"convert hot MyISAM/Aria tables to InnoDB, which locks rows, not tables.",
		append(ids(waiters, maxThreadIDs), ids(holders, maxContextLines)...)), snapshot.LockTable)
}

// tableLockImmediateShare is Δimmediate / Δ(immediate + waited) in percent,
// when enough locks were taken this interval to judge.
func tableLockImmediateShare(w *window, c *Config) (float64, bool) {
	if w.warmingUp(c) != "" {
		return 0, false
	}
	imm, ok1 := w.rate("Table_locks_immediate")
	waited, ok2 := w.rate("Table_locks_waited")
	total := imm + waited
	if !ok1 || !ok2 || total < c.TableLocksMinPerSec {
		return 0, false
	}
	return 100 * imm / total, true
}
