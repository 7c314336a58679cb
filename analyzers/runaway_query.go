package analyzers

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// Runaway queries: a statement of any kind that has run for a while and is
// still burning a CPU core (per-thread CPU from /proc when the server is on
// this machine) or reading rows fast (rows examined so far, where the server
// counts them while the statement runs). The monthly-incident reproductions's reproduction: three
// cross joins running 45 s burned both cores and cpu_saturation said "index
// them"; the DBA's first move is to kill them, then fix the plan. Each is
// named with its time, CPU, rows read so far and, for a writer, the row
// changes a KILL would roll back (the InnoDB status's undo log entries).
// A long statement that waits (SLEEP, a lock, the client) uses no CPU and
// reads nothing: it is another rule's, or nobody's.

// RunawayConfig holds runaway_query's thresholds. Embedded in Config.
type RunawayConfig struct {
	// RunawayMinSeconds: a statement must have run this long (DOL colours a
	// running query yellow from 5 s, as FullScanMinSeconds). Trap: an OLTP
	// statement caught in its first second burning CPU is just running.
	RunawayMinSeconds float64
	// RunawayCPUMin: % of one core the statement's thread used over the
	// last interval (UNKNOWN; design: a cross join alone burns ~100 %, three
	// on two shared cores ~40-66 % each; a statement waiting for a lock, a
	// sleep or the disk uses under 5 %). Trap: calling a long statement that
	// only waits a runaway.
	RunawayCPUMin float64
	// RunawayRowsPerSec: rows examined per second, where the server counts
	// them while the statement runs (MySQL performance_schema, Percona,
	// MariaDB's UPDATE/DELETE), at or above which it reads like a scan
	// (UNKNOWN; design: an indexed lookup examines a handful of rows; a scan
	// on this 2-core machine reads 1-5 M rows/s). Trap: a long report
	// streaming a few rows a second to a slow client is not running away.
	RunawayRowsPerSec float64
	// RunawayCritSeconds: still burning after this long is critical
	// (innotop's red band for waits, 60 s, IT L2552; design). Trap: none of
	// its own; it only raises the severity.
	RunawayCritSeconds float64
}

func (c *RunawayConfig) defaults() {
	*c = RunawayConfig{RunawayMinSeconds: 5, RunawayCPUMin: 40, RunawayRowsPerSec: 100000, RunawayCritSeconds: 60}
}

// runaway is one statement judged to run away.
type runaway struct {
	p       *snapshot.Process
	cpu     float64 // % of a core, -1 unknown
	rowsSec float64 // rows examined per second, -1 unknown
	undo    int64   // row changes a KILL rolls back, -1 unknown
	routine bool    // routine work (routineRun): maintenance someone started on purpose
}

// IDRunawayQuery names the findings of runaway_query: a contract (the README's
// findings table), stable, never reused.
const IDRunawayQuery = "runaway_query"

// runawayQueryRule is runaway_query in the rules table (rule.go). The
// statement's Time proves it lasts; its CPU must hold two intervals (one may
// be a burst), and be gone 3 s to clear.
var runawayQueryRule = rule{id: IDRunawayQuery, check: checkRunawayQuery,
	persist: persistFor(2*time.Second, 3*time.Second)}

func checkRunawayQuery(w *window, c *Config) verdict {
	if len(w.snap.Processlist) == 0 {
		if r := w.unavailable(snapshot.CollectorProcesslist); r != "" {
			return notApplicable(r)
		}
		return quiet()
	}
	tr := w.threadRates()
	var found []runaway
	minMS := int64(c.RunawayMinSeconds * 1000)
	for i := range w.snap.Processlist {
		p := &w.snap.Processlist[i]
		if !isRunningStatement(p) || p.TimeMS < minMS {
			continue
		}
		r := runaway{p: p, cpu: -1, rowsSec: -1, undo: -1}
		if tr != nil {
			if x, ok := tr.ForConn(p.ID); ok {
				r.cpu = x.CPU
			} else {
				r.cpu = 0 // not read: idle for two ticks
			}
		}
		r.rowsSec = examinedPerSec(w, p)
		if r.cpu < c.RunawayCPUMin && r.rowsSec < c.RunawayRowsPerSec {
			continue
		}
		r.undo = undoEntries(w, p.ID)
		r.routine = routineRun(w, p)
		found = append(found, r)
	}
	if len(found) == 0 {
		return quiet()
	}
	slices.SortStableFunc(found, func(a, b runaway) int { return int(b.p.TimeMS - a.p.TimeMS) })
	sev := snapshot.Warning
	allRoutine := true
	for _, r := range found {
		allRoutine = allRoutine && r.routine
		if float64(r.p.TimeMS) >= c.RunawayCritSeconds*1000 && !r.routine {
			sev = snapshot.Critical
		}
	}
	if allRoutine {
		sev = snapshot.Info
	}
	top := found[0]
	title := fmt.Sprintf("runaway %s: thread %d running %s", statementVerb(top.p.Info),
		top.p.ID, fmtMS(top.p.TimeMS))
	if top.cpu >= 0 {
		title += fmt.Sprintf(" at %.0f %% of a core", top.cpu)
	}
	if len(found) > 1 {
		title = fmt.Sprintf("%d runaway statements; longest: thread %d, %s", len(found), top.p.ID, fmtMS(top.p.TimeMS))
	}
	var ev []string
	var ids []int64
	for i, r := range found {
		ids = append(ids, r.p.ID)
		if i < maxThreadLines {
			ev = append(ev, runawayLine(w, r))
		}
	}
	if len(found) > maxThreadLines {
		ev = append(ev, fmt.Sprintf("… and %d more", len(found)-maxThreadLines))
	}
	ev = appendNonEmpty(ev, w.hostFigures(), w.counterLine("Innodb_rows_read"), w.counterLine("Handler_read_rnd_next"))
	return raise(sev, title, ev, runawayAdvice(found), ids)
}

// runawayLine: "thread 12 app@10.0.0.12 db shop, 45 s in "Sending data":
// CPU 98 % of a core, 1,204,331 rows examined (250,000/s), 3,579 row
// changes to roll back; plan: ...; select ...".
func runawayLine(w *window, r runaway) string {
	p := r.p
	var b strings.Builder
	threadHead(&b, p)
	var parts []string
	if r.cpu >= 0 {
		parts = append(parts, fmt.Sprintf("CPU %.0f %% of a core", r.cpu))
	}
	if p.ExaminedRows > 0 {
		s := fmtCount(p.ExaminedRows) + " rows examined so far"
		if r.rowsSec >= 0 {
			s += fmt.Sprintf(" (%s/s)", fmtRate(r.rowsSec))
		}
		parts = append(parts, s)
	} else {
		parts = append(parts, "rows examined not counted by this server while it runs")
	}
	if r.undo > 0 {
		parts = append(parts, fmt.Sprintf("a KILL rolls back %s row changes (undo log entries), which takes "+
			"about as long as making them", fmtCount(r.undo)))
	} else if r.undo == 0 && infer.IsWriter(p.Info) {
		parts = append(parts, "no row changed yet: a KILL costs no rollback")
	}
	fmt.Fprintf(&b, ": %s", strings.Join(parts, ", "))
	if plan := planSummary(w.snap.Explains[snapshot.Fingerprint(p.Info)]); plan != "" {
		fmt.Fprintf(&b, "; plan %s", plan)
	}
	fmt.Fprintf(&b, "; %s", statement(p.Info))
	return b.String()
}

// examinedPerSec is the statement's rows examined per second since the
// previous frame, or over its whole run when that frame lacks it; -1 when
// the server does not count them while it runs.
func examinedPerSec(w *window, p *snapshot.Process) float64 {
	if p.ExaminedRows <= 0 {
		return -1
	}
	if prev := w.prev(); prev != nil && w.rates != nil && w.rates.Interval > 0 {
		for i := range prev.Snapshot.Processlist {
			q := &prev.Snapshot.Processlist[i]
			if q.ID == p.ID && q.Info == p.Info && q.ExaminedRows > 0 && q.ExaminedRows <= p.ExaminedRows {
				return float64(p.ExaminedRows-q.ExaminedRows) / w.rates.Interval
			}
		}
	}
	if p.TimeMS <= 0 {
		return -1
	}
	return float64(p.ExaminedRows) / (float64(p.TimeMS) / 1000)
}

// undoEntries is the row changes the thread's transaction made so far
// (the InnoDB status's "undo log entries"); -1 when unknown.
func undoEntries(w *window, thread int64) int64 {
	in := w.snap.InnoDB
	if in == nil || !in.Transactions.Present {
		return -1
	}
	for _, t := range in.Transactions.Trx {
		if t.ThreadID == thread {
			return t.UndoEntries
		}
	}
	if in.Transactions.ListTruncated || len(in.Transactions.Trx) >= 64 {
		return -1
	}
	return 0
}

// statementVerb is the statement's verb, that of the statement inside
// MariaDB's "SET STATEMENT var=value FOR <statement>".
func statementVerb(q string) string {
	v := snapshot.StatementVerb(q)
	if v == "SET" {
		if i := strings.Index(strings.ToUpper(q), " FOR "); i > 0 {
			return snapshot.StatementVerb(q[i+5:])
		}
	}
	return v
}

// routineRun: the statement is routine work's by the one recogniser (a dump,
// a backup, an online schema change, table maintenance, DDL), or its session
// was seen doing such work in the window.
func routineRun(w *window, p *snapshot.Process) bool {
	return w.routine().byID(p.ID) != nil || classifyRoutine(p).strength == markerTool
}

// planSummary is "a ALL ~3,000 rows × b ALL ~3,000 rows" from a stored plan.
func planSummary(ex *snapshot.Explain) string {
	if ex == nil || ex.Error != "" || len(ex.Rows) == 0 {
		return ""
	}
	var parts []string
	for i, r := range ex.Rows {
		if i == 4 {
			parts = append(parts, "…")
			break
		}
		s := fmt.Sprintf("%s %s", r.Table, r.Type)
		if r.Key != "" {
			s += " key " + r.Key
		}
		if r.Rows > 0 {
			s += " ~" + fmtCount(r.Rows) + " rows"
		}
		parts = append(parts, s)
	}
	return "(" + planMethod(ex) + "): " + strings.Join(parts, " × ")
}

func runawayAdvice(found []runaway) string {
	var kills []string
	for i, r := range found {
		if i == 5 {
			break
		}
		kills = append(kills, fmt.Sprintf("KILL QUERY %d", r.p.ID))
	}
	s := "If the result is not needed now, stop it: " + strings.Join(kills, "; ") + " (the session stays " +
		"connected; KILL without QUERY drops it). Then fix its plan before it is sent again: EXPLAIN it, add the " +
		"missing join or WHERE index, or a missing join condition (a cross join multiplies the tables' rows); " +
		"max_statement_time (MariaDB) or MAX_EXECUTION_TIME (MySQL) bounds such statements in the future."
	for _, r := range found {
		if r.undo > 0 {
			s += " A writer's KILL rolls back the rows it changed, as slowly as it made them: let a writer that " +
				"is nearly done finish."
			break
		}
	}
	if found[0].routine {
		s += " DDL, maintenance and dumps are started on purpose: ask their owner before stopping them."
	}
	return s
}
