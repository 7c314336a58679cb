package analyzers

import (
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A running UPDATE/DELETE with no usable index reads (and in InnoDB locks)
// every row of its table (FTS-01). Proof comes from the plan a collector stored
// in Snapshot.Explains, or from examined rows against the table's rows; the
// statement text alone never raises more than info.

// lockWaitStates are states of threads queued behind someone else's lock.
var lockWaitStates = []string{
	"Waiting for table level lock", "Locked", qcWaitState, "Waiting for table metadata lock",
}

// scanJudgement is what is known about one candidate statement.
type scanJudgement struct {
	p        *snapshot.Process
	proven   bool
	table    string
	proof    string
	severity snapshot.Severity
}

// IDFullScanUpdate names the findings of full_scan_update: a contract (the
// README's findings table), stable, never reused.
const IDFullScanUpdate = "full_scan_update"

// fullScanUpdateRule is full_scan_update in the rules table (rule.go). The
// statement's own Time already proves it lasts.
var fullScanUpdateRule = rule{id: IDFullScanUpdate, check: checkFullScanUpdate, persist: persistFor(1*time.Second, 3*time.Second)}

func checkFullScanUpdate(w *window, c *Config) verdict {
	if r := w.unavailable(snapshot.CollectorProcesslist); r != "" {
		return notApplicable(r)
	}
	cands := w.processes().running(int64(c.FullScanMinSeconds*1000), "UPDATE", "DELETE")
	var found []scanJudgement
	for _, p := range cands {
		if j, ok := judgeScan(w, c, p); ok {
			found = append(found, j)
		}
	}
	recurring := withoutLongRuns(recurringScans(w, c), found)
	if len(found) == 0 {
		if len(recurring) > 0 {
			return withDigestProof(recurringVerdict(w, recurring), fullScanDigests(w, c))
		}
		return checkFullScanDigests(w, c) // short scans only digests see (full_scan_digest.go)
	}
	worst := found[0]
	for _, j := range found[1:] {
		if j.severity > worst.severity {
			worst = j
		}
	}
	ev := append(fullScanEvidence(w, found), recurringEvidence(recurring)...)
	v := raise(worst.severity, fullScanTitle(worst, len(found)), ev, fullScanAdvice(worst),
		append(scanThreads(found), recurringThreads(recurring)...))
	v.finding.Tables = append(scanTables(found), recurringTables(recurring)...)
	return withDigestProof(v, fullScanDigests(w, c))
}

// scanTables are the tables the long scans change.
func scanTables(found []scanJudgement) []string {
	var out []string
	for _, j := range found {
		if j.table != "" && !hasTable(out, j.table) {
			out = append(out, j.table)
		}
	}
	return out
}

// judgeScan decides whether p scans its whole table and how bad that is.
func judgeScan(w *window, c *Config, p *snapshot.Process) (scanJudgement, bool) {
	j := scanJudgement{p: p, table: targetTable(p.Info), severity: snapshot.Info}
	ex := w.snap.Explains[snapshot.Fingerprint(p.Info)]
	planned, planSaysScan := planScan(ex, c)
	examined := examinedProof(p, ex, j.table, c)
	switch {
	case planSaysScan != "":
		j.proven, j.proof = true, planSaysScan
	case examined != "":
		j.proven, j.proof = true, examined
	case planned:
		return j, false // the plan uses an index and the rows read agree
	case p.ExaminedRows >= 0 && p.ExaminedRows < c.FullScanMinTableRows:
		return j, false // seconds in, and it has read fewer rows than any table worth a finding
	case waitsForLock(w, p):
		// Its seconds are spent queued behind another's lock, not reading
		// rows: the lock rules name it, with its holder.
		return j, false
	default:
		j.proof = "no plan or table size yet to confirm a full scan"
		if !hasWhere(p.Info) {
			j.proof = "no WHERE clause; no plan yet to confirm a full scan"
		}
	}
	if j.proven {
		j.severity = scanSeverity(w, c, p, j.table)
	}
	return j, true
}

// planScan reads the stored EXPLAIN: planned is true when a usable plan exists;
// proof is set when it shows a full scan (type ALL, or index = full index scan)
// of a table big enough to matter.
func planScan(ex *snapshot.Explain, c *Config) (planned bool, proof string) {
	if ex == nil || ex.Error != "" || len(ex.Rows) == 0 {
		return false, ""
	}
	for _, r := range ex.Rows {
		typ := strings.ToUpper(r.Type)
		if typ != "ALL" && typ != "INDEX" {
			continue
		}
		size := max(tableRows(ex, r.Table), r.Rows)
		if size < c.FullScanMinTableRows {
			continue
		}
		key := r.Key
		if key == "" {
			key = "NULL"
		}
		return true, fmt.Sprintf("plan (%s): table %s type %s, key %s, ~%s rows", planMethod(ex), r.Table,
			r.Type, key, fmtCount(size))
	}
	return true, ""
}

func planMethod(ex *snapshot.Explain) string {
	if ex.Method == "" {
		return "EXPLAIN"
	}
	return ex.Method
}

// examinedProof is set when rows examined so far reach the configured share of
// the table's rows.
func examinedProof(p *snapshot.Process, ex *snapshot.Explain, table string, c *Config) string {
	total := tableRows(ex, table)
	if p.ExaminedRows <= 0 || total < c.FullScanMinTableRows {
		return ""
	}
	share := float64(p.ExaminedRows) / float64(total)
	if share < c.FullScanExaminedShare {
		return ""
	}
	return fmt.Sprintf("examined %s of ~%s rows in %s (%.0f %%)", fmtCount(p.ExaminedRows), fmtCount(total),
		table, share*100)
}

// tableRows is the stored row estimate for table, or the only one stored.
func tableRows(ex *snapshot.Explain, table string) int64 {
	if ex == nil {
		return 0
	}
	for t, n := range ex.TableRows {
		if table == "" && len(ex.TableRows) == 1 || table != "" && sameTable(t, table) {
			return n
		}
	}
	return 0
}

// scanSeverity is critical once waiters would start timing out
// (innodb_lock_wait_timeout) or others queue on its locks meanwhile (FTS-01).
func scanSeverity(w *window, c *Config, p *snapshot.Process, table string) snapshot.Severity {
	limit := c.FullScanCritSeconds
	if v, ok := w.snap.VarFloat("innodb_lock_wait_timeout"); ok && v > 0 {
		limit = v
	}
	if float64(p.TimeMS)/1000 >= limit || ownWaitersOf(w, p, table) > 0 {
		return snapshot.Critical
	}
	return snapshot.Warning
}

// waitsForLock reports whether the lock tables or the InnoDB transaction list
// show p queued for a lock for most of its run (an InnoDB row-lock waiter
// reads "Updating" in MariaDB's processlist). A wait of unknown length counts.
func waitsForLock(w *window, p *snapshot.Process) bool {
	mostly := func(waitS int64) bool { return waitS <= 0 || 2*waitS*1000 >= p.TimeMS }
	if l := w.snap.Locks; l != nil {
		for _, e := range l.Waits {
			if e.Waiter == p.ID && !e.Inferred && mostly(e.WaitS) {
				return true
			}
		}
	}
	if in := w.snap.InnoDB; in != nil {
		for _, t := range in.Transactions.Trx {
			if t.ThreadID == p.ID && t.LockWait && mostly(t.LockWaitSeconds) {
				return true
			}
		}
	}
	return false
}

// lockWaiters counts threads queued on table, query-cache and metadata locks
// plus InnoDB transactions in LOCK WAIT.
func lockWaiters(w *window) int {
	n := len(w.processes().inStates(lockWaitStates...))
	if in := w.snap.InnoDB; in != nil {
		n += in.Transactions.LockWaits
	}
	return n
}

func fullScanTitle(j scanJudgement, n int) string {
	verb := snapshot.StatementVerb(j.p.Info)
	what := fmt.Sprintf("%s %s", verb, orUnknown(j.table))
	title := fmt.Sprintf("%s scans the whole table, running %s", what, fmtMS(j.p.TimeMS))
	if !j.proven {
		title = fmt.Sprintf("%s running %s; full scan not yet confirmed", what, fmtMS(j.p.TimeMS))
	}
	if n > 1 {
		title += fmt.Sprintf(" (+%d more)", n-1)
	}
	return title
}

func fullScanEvidence(w *window, found []scanJudgement) []string {
	var ev []string
	for i, j := range found {
		if i == maxThreadLines {
			ev = append(ev, fmt.Sprintf("… and %d more statements", len(found)-i))
			break
		}
		ev = append(ev, threadLine(j.p), "  "+j.proof)
		if r := examinedRate(w, j.p); r != "" {
			ev = append(ev, "  "+r)
		}
	}
	if n := scanWaiters(w, scanThreads(found), scanTables(found)); n > 0 {
		ev = append(ev, fmt.Sprintf("%d threads wait on its locks", n))
	} else if n := lockWaiters(w); n > 0 {
		ev = append(ev, fmt.Sprintf("%d threads wait on other locks meanwhile (not on its tables)", n))
	}
	return appendNonEmpty(ev, w.counterLine("Handler_read_rnd_next"), w.counterLine("Innodb_rows_read"))
}

// examinedRate is the scan speed from the previous frame's row count.
func examinedRate(w *window, p *snapshot.Process) string {
	prev := w.prev()
	if prev == nil || p.ExaminedRows <= 0 || w.rates == nil {
		return ""
	}
	for i := range prev.Snapshot.Processlist {
		q := &prev.Snapshot.Processlist[i]
		if q.ID == p.ID && q.ExaminedRows > 0 && q.ExaminedRows <= p.ExaminedRows {
			return fmt.Sprintf("reading %s rows/s", fmtRate(float64(p.ExaminedRows-q.ExaminedRows)/w.rates.Interval))
		}
	}
	return ""
}

func fullScanAdvice(j scanJudgement) string {
	index := "an index on the columns of its WHERE clause"
	if cols := whereColumns(j.p.Info); len(cols) > 0 {
		index = fmt.Sprintf("an index on %s(%s)", orUnknown(j.table), strings.Join(cols, ", "))
	}
	return fmt.Sprintf("Add %s (check with EXPLAIN that it is used), or rewrite the statement to use an existing "+
		"one; run large changes in primary-key ranges. If it blocks others now, KILL QUERY %d — the rollback "+
		"also takes time.", index, j.p.ID)
}

func scanThreads(found []scanJudgement) []int64 {
	out := make([]int64, 0, len(found))
	for _, j := range found {
		out = append(out, j.p.ID)
	}
	return out
}

func orUnknown(s string) string {
	if s == "" {
		return "(table unknown)"
	}
	return s
}

// withoutLongRuns drops recurring fingerprints already named by a long run.
func withoutLongRuns(rs []recurringScan, found []scanJudgement) []recurringScan {
	out := rs[:0:0]
	for _, r := range rs {
		dup := false
		for _, j := range found {
			dup = dup || snapshot.Fingerprint(j.p.Info) == r.fp
		}
		if !dup {
			out = append(out, r)
		}
	}
	return out
}
