package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Prepared statements near max_prepared_stmt_count: once the server holds
// that many, every new PREPARE (SQL or binary protocol) fails with error 1461
// (ER_MAX_PREPARED_STMT_COUNT_REACHED) in every session. The usual cause is a
// leak: an application or pool that prepares and never closes.

// PreparedStmtConfig holds prepared_stmt_limit's thresholds. Embedded in
// Config.
type PreparedStmtConfig struct {
	// PreparedStmtWarn: Prepared_stmt_count as % of max_prepared_stmt_count
	// at which the rule warns. No public source gives a number for this
	// limit; it is CONC-02's 80 % (PMM-A/APA, connections against
	// max_connections), the same kind of server-wide cap. At 100 % it is
	// critical: new PREPAREs already fail (the server's own limit). Trap: a
	// pool that keeps a steady set of statements prepared is a level, not a
	// leak; it raises nothing below the bar, however many it keeps.
	PreparedStmtWarn float64
	// PreparedStmtLeakWindow: the count's growth is measured over this much
	// history to say when the limit will be reached at the current leak rate
	// (evidence only; UNKNOWN, one minute). Trap: one interval's prepare and
	// close rates, which differ whenever a burst straddles a sample.
	PreparedStmtLeakWindow time.Duration
}

func (c *PreparedStmtConfig) defaults() {
	*c = PreparedStmtConfig{PreparedStmtWarn: 80, PreparedStmtLeakWindow: time.Minute}
}

const (
	psCount   = "Prepared_stmt_count"
	psPrepare = "Com_stmt_prepare"
	psClose   = "Com_stmt_close"
)

// IDPreparedStmtLimit names the findings of prepared_stmt_limit: a contract
// (the README's findings table), stable, never reused.
const IDPreparedStmtLimit = "prepared_stmt_limit"

// preparedStmtLimitRule is prepared_stmt_limit in the rules table (rule.go).
// Levels against the server's own limit: one sample proves them.
var preparedStmtLimitRule = rule{id: IDPreparedStmtLimit, check: checkPreparedStmtLimit,
	persist: persistFor(time.Second, 5*time.Second)}

func checkPreparedStmtLimit(w *window, c *Config) verdict {
	if r := w.statusNA(psCount); r != "" {
		return notApplicable(r)
	}
	limit, ok := w.snap.VarFloat("max_prepared_stmt_count")
	if !ok {
		if len(w.snap.Variables) > 0 {
			return notApplicable("server does not report max_prepared_stmt_count")
		}
		return quiet()
	}
	n, ok := w.snap.StatusFloat(psCount)
	if !ok || limit <= 0 {
		return quiet() // 0 disables prepared statements on purpose
	}
	pct := 100 * n / limit
	if pct < c.PreparedStmtWarn {
		return quiet()
	}
	sev := snapshot.Warning
	title := fmt.Sprintf("%.0f of max_prepared_stmt_count %.0f prepared statements (%.0f %%)", n, limit, pct)
	if n >= limit {
		sev = snapshot.Critical
		title = fmt.Sprintf("max_prepared_stmt_count (%.0f) reached: every new PREPARE fails with error 1461", limit)
	}
	ev := []string{fmt.Sprintf("Prepared_stmt_count %.0f of max_prepared_stmt_count %.0f (%.0f %%)", n, limit, pct)}
	prep, ok1 := w.rate(psPrepare)
	cl, ok2 := w.rate(psClose)
	if ok1 && ok2 {
		ev = append(ev, fmt.Sprintf("prepared %s/s, closed %s/s this interval: %s/s left open",
			fmtRate(prep), fmtRate(cl), fmtRate(max(prep-cl, 0))))
	}
	if s, ok := w.spanOver(psCount, c.PreparedStmtLeakWindow, c.PreparedStmtLeakWindow/4); ok && s.delta > 0 {
		line := fmt.Sprintf("Prepared_stmt_count grew by %.0f in %s (%s/s)", s.delta, fmtDuration(s.elapsed),
			fmtRate(s.perSec()))
		if n < limit {
			line += fmt.Sprintf(": the limit is reached in about %s at that rate",
				fmtDuration(time.Duration((limit-n)/s.perSec()*float64(time.Second))))
		}
		ev = append(ev, line)
	}
	ev = append(ev, w.counterLines("Com_stmt_execute", "Com_prepare_sql", "Com_dealloc_sql")...)
	var threads []int64
	for _, o := range w.snap.PreparedOwners {
		line := fmt.Sprintf("thread %d %s holds %d prepared statements", o.ThreadID,
			userHost(&snapshot.Process{User: o.User, Host: o.Host}), o.Count)
		if o.Sample != "" {
			line += ", e.g. " + statement(o.Sample)
		}
		ev = append(ev, line)
		if o.ThreadID > 0 {
			threads = append(threads, o.ThreadID)
		}
	}
	if len(w.snap.PreparedOwners) == 0 {
		if ps, ok := w.variable("performance_schema"); ok && !isOn(ps) {
			ev = append(ev, "performance_schema is off: the sessions holding them cannot be named "+
				"(performance_schema.prepared_statements_instances)")
		}
		ev = appendNonEmpty(ev, connectionsByUser(w.processes()))
	}
	return raise(sev, title, ev,
		"Find the application that prepares statements and never closes them (mysql_stmt_close / "+
			"DEALLOCATE PREPARE; a driver's server-side statement cache without a bound, e.g. Connector/J "+
			"useServerPrepStmts with prepStmtCacheSize unbounded per connection) and fix it; closing its "+
			"connections frees their statements at once. Raising max_prepared_stmt_count (default 16382, "+
			"server manual) only delays the failure and each statement holds server memory.", threads)
}
