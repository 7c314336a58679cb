package analyzers

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The read side of the full-scan incident (FTS-01): a SELECT with no usable
// index, 100 ms each, sent again and again (users looked up by an email
// whose index was dropped: 36 scans of 200,000 rows a second, QPS from
// 14,496 to 38). No run lives long enough for runaway_query, and
// full_scan_update judges writes. Proof is the digest (no index used, rows
// examined per call at least FullScanRecurMinRows) or, without digests, the
// fingerprint seen running in sample after sample with a stored plan of type
// ALL over at least FullScanRecurMinRows rows: a scan of a small table is
// the right plan and stays quiet, and so does routine work (a dump reads
// each table once) and anything under FullScanSelectMinCalls. The processlist's tally and the plan are
// full_scan_recurring's; the explain collector plans a SELECT once it is
// seen in two ticks in a row.

// IDFullScanSelect names the findings of full_scan_select: a contract (the
// README's findings table), stable, never reused.
const IDFullScanSelect = "full_scan_select"

// fullScanSelectRule is full_scan_select in the rules table (rule.go): the
// recurrence is proved over the sighting window already, so a 2-s onset.
var fullScanSelectRule = rule{id: IDFullScanSelect, check: checkFullScanSelect,
	persist: persistFor(2*time.Second, 10*time.Second)}

// selectScan is one SELECT fingerprint proven to read a whole table again
// and again.
type selectScan struct {
	text, table, proof, source string
	rowsPerCall                float64
	callsPerS                  float64
	atLeast                    bool // callsPerS counts only the runs samples saw start
	line                       string
	threads                    []int64
}

func (s selectScan) rowsPerS() float64 { return s.rowsPerCall * s.callsPerS }

// filtering keeps the scans of statements that filter rows: one without a
// WHERE clause (a report summing a whole table, a read-ahead heavy scan)
// reads every row by design, and no index would spare it.
func filtering(scans []selectScan) []selectScan {
	out := scans[:0]
	for _, s := range scans {
		if hasWhere(s.text) {
			out = append(out, s)
		}
	}
	return out
}

func checkFullScanSelect(w *window, c *Config) verdict {
	if r := w.unavailable(snapshot.CollectorProcesslist); r != "" && w.snap.Statements == nil {
		return notApplicable(r)
	}
	scans := digestSelectScans(w, c)
	if len(scans) == 0 {
		scans = processlistSelectScans(w, c)
	}
	scans = filtering(scans)
	if len(scans) == 0 {
		return quiet()
	}
	sort.SliceStable(scans, func(i, j int) bool { return scans[i].rowsPerS() > scans[j].rowsPerS() })
	worst := scans[0]
	calls := fmtRate(worst.callsPerS) + " calls/s"
	if worst.atLeast {
		calls = "at least " + calls
	}
	title := fmt.Sprintf("SELECT on %s reads the whole table again and again: %s, ~%s rows each (%s rows/s)",
		orUnknown(worst.table), calls, fmtCount(int64(worst.rowsPerCall)), fmtRate(worst.rowsPerS()))
	if len(scans) > 1 {
		title += fmt.Sprintf(" (+%d more)", len(scans)-1)
	}
	var ev []string
	var threads []int64
	var tables []string
	for _, s := range scans[:min(len(scans), maxThreadLines)] {
		ev = append(ev, fmt.Sprintf("%s (%s)", statement(s.text), s.source), "  "+s.proof)
		ev = appendNonEmpty(ev, s.line)
		threads = append(threads, s.threads...)
		if s.table != "" && !hasTable(tables, s.table) {
			tables = append(tables, s.table)
		}
	}
	ev = appendNonEmpty(ev, scanCounterLine(w))
	v := raise(snapshot.Warning, title, ev, selectIndexAdvice(worst), threads)
	v.finding.Tables = tables
	return v
}

// digestSelectScans are the SELECT digests of the latest interval that
// used no index and examined at least FullScanRecurMinRows rows a call.
func digestSelectScans(w *window, c *Config) []selectScan {
	var out []selectScan
	for _, r := range w.digestRates() {
		if digestVerb(&r) != "SELECT" || !r.NoIndexUsed || !readsFarMore(&r, c) {
			continue
		}
		perCall := r.RowsExaminedPerS / r.CallsPerS
		if perCall < float64(c.FullScanRecurMinRows) || r.CallsPerS < c.FullScanSelectMinCalls {
			continue
		}
		text := digestText(r.Fingerprint)
		out = append(out, selectScan{text: text, table: firstTable(text), source: "digests",
			proof: fmt.Sprintf("no index used; %s rows examined per call, %s rows sent per call",
				fmtCount(int64(perCall)), fmtRate(r.RowsSentPerS/r.CallsPerS)),
			rowsPerCall: perCall, callsPerS: r.CallsPerS, line: "  " + digestLine(&r)})
	}
	return out
}

// processlistSelectScans are the SELECT fingerprints seen running in
// FullScanRecurSamples of the sighting window, keeping FullScanRecurBusy
// threads busy, whose stored plan reads a whole table of at least
// FullScanRecurMinRows rows.
func processlistSelectScans(w *window, c *Config) []selectScan {
	frames := w.recent(max(c.SightingWindow, 1))
	tallies, order, samples := tallyRunning(w, frames, func(pc procCounts) []int32 { return pc.selects })
	if samples == 0 {
		return nil
	}
	span := frames[len(frames)-1].Snapshot.Time.Sub(frames[0].Snapshot.Time).Seconds()
	var out []selectScan
	for _, fp := range order {
		t := tallies[fp]
		busy := float64(t.sightings) / float64(samples)
		if t.seenIn < c.FullScanRecurSamples || busy < c.FullScanRecurBusy || t.runs < 2 || t.lastSeen < len(frames)-3 {
			continue
		}
		table, proof, rows := planTableScan(t.explain)
		if proof == "" || rows < c.FullScanRecurMinRows {
			continue
		}
		s := selectScan{text: t.text, table: orFirstTable(table, t.text), proof: proof, threads: t.threads,
			source: "processlist + " + planMethod(t.explain), rowsPerCall: float64(rows), atLeast: true,
			line: fmt.Sprintf("  seen running in %d of the last %d samples, %.1f at a time; at least %d runs",
				t.seenIn, samples, busy, t.runs)}
		if span > 0 {
			s.callsPerS = float64(t.runs) / span
		}
		if s.callsPerS < c.FullScanSelectMinCalls || routineThreads(w, t.threads) {
			continue
		}
		out = append(out, s)
	}
	return out
}

// routineThreads reports a fingerprint run by routine work (a dump, a
// checksum), which reads whole tables by design.
func routineThreads(w *window, ids []int64) bool {
	r := w.routine()
	for _, id := range ids {
		if r.byID(id) != nil {
			return true
		}
	}
	return false
}

// planTableScan reads a stored plan's first table read whole (type ALL).
// A full index scan (type index) of a SELECT is often a covering index read
// in order, not the missing index this rule is about.
func planTableScan(ex *snapshot.Explain) (table, proof string, rows int64) {
	if ex == nil || ex.Error != "" {
		return "", "", 0
	}
	for _, r := range ex.Rows {
		if !strings.EqualFold(r.Type, "ALL") {
			continue
		}
		size := max(tableRows(ex, r.Table), r.Rows)
		return r.Table, fmt.Sprintf("plan (%s): table %s type ALL, key NULL, ~%s rows", planMethod(ex), r.Table,
			fmtCount(size)), size
	}
	return "", "", 0
}

// firstTable is the first table a SELECT reads (FROM), or "".
func firstTable(q string) string {
	if ts := statementTables(q); len(ts) > 0 {
		return ts[0]
	}
	return ""
}

// orFirstTable prefers the statement's own (schema-qualified) table.
func orFirstTable(planTable, text string) string {
	if t := firstTable(text); t != "" {
		return t
	}
	return planTable
}

// scanCounterLine is the counters' side: full scans started (Select_scan)
// and rows read by scans (Handler_read_rnd_next) server-wide.
func scanCounterLine(w *window) string {
	scans, ok1 := w.rate("Select_scan")
	rnd, ok2 := w.rate("Handler_read_rnd_next")
	if !ok1 || !ok2 {
		return ""
	}
	line := fmt.Sprintf("server-wide: Select_scan %s/s, Handler_read_rnd_next %s/s", fmtRate(scans), fmtRate(rnd))
	if scans >= 1 {
		line += fmt.Sprintf(" (~%s rows per scan)", fmtCount(int64(rnd/scans)))
	}
	return line
}

func selectIndexAdvice(s selectScan) string {
	index := "an index on the columns of its WHERE clause"
	if cols := whereColumns(s.text); len(cols) > 0 {
		index = fmt.Sprintf("an index on %s(%s)", orUnknown(s.table), strings.Join(cols, ", "))
	}
	return fmt.Sprintf("Add %s (check with EXPLAIN that it is used), or rewrite the statement so an existing "+
		"index applies (a leading-wildcard LIKE or a function on the column cannot use one). Each call now "+
		"reads the whole table.", index)
}
