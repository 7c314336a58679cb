package analyzers

import (
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The common form of the full-scan incident: the same UPDATE/DELETE with no
// usable index, 0.3–2 s each, sent again and again by several clients. No
// single run lives long enough to be judged alone, but its fingerprint is
// seen running in most samples. Every UPDATE/DELETE fingerprint seen running
// is judged whatever its age: the collector EXPLAINs it once (cached), and it
// is raised when the plan scans a big table and it keeps threads busy.

// recurringScan is one fingerprint proven to scan a big table, recurring.
type recurringScan struct {
	fp       string
	text     string // the newest statement text seen, for the WHERE columns
	table    string
	proof    string // what the plan says
	scanRows int64  // rows the plan reads per run
	seenIn   int    // samples it was seen running in
	blocking int    // of them, samples where others queued on a table or query cache lock
	samples  int    // samples looked at
	busy     float64
	runs     int     // distinct runs seen start
	span     float64 // seconds the samples cover
	threads  []int64 // threads running it in the newest sample it was seen in
	now      bool    // that sample is the current one
	source   string
	// counted is the counters' proof when the samples caught it too rarely.
	counted string
}

// recurringScans are the recurring full scans the processlist and the stored
// plans prove. Where performance_schema digests are readable,
// full_scan_digest.go also sees the runs no sample catches; it answers when
// this path finds nothing.
func recurringScans(w *window, c *Config) []recurringScan { return processlistRecurringScans(w, c) }

// fpTally is one fingerprint's sightings over the sighting window.
type fpTally struct {
	text      string
	seenIn    int
	blocking  int // samples seen in while others queued on a table or query cache lock
	sightings int
	runs      int
	threads   []int64 // in the newest frame it was seen in (a short run is gone between samples)
	explain   *snapshot.Explain
	lastSeen  int // index of the newest frame it was seen in
}

// processlistRecurringScans tallies UPDATE/DELETE fingerprints over the
// sighting window from the processlist and the stored plans.
func processlistRecurringScans(w *window, c *Config) []recurringScan {
	frames := w.recent(max(c.SightingWindow, 1))
	tallies, order, samples := tallyWrites(w, frames)
	if samples == 0 {
		return nil
	}
	span := frames[len(frames)-1].Snapshot.Time.Sub(frames[0].Snapshot.Time).Seconds()
	var out []recurringScan
	for _, fp := range order {
		t := tallies[fp]
		busy := float64(t.sightings) / float64(samples)
		// It must recur (two runs at least: one long run is judged by its
		// own Time) and still be running lately, so it clears once stopped.
		// A scan others queue behind harms them each time it runs, however
		// short: FullScanRecurBlocked samples with a queue stand for the
		// sightings and busy share a 1-s sample under-counts (a 50-ms MyISAM
		// scan is caught in one sample of three to seven).
		recurs := t.seenIn >= c.FullScanRecurSamples && busy >= c.FullScanRecurBusy
		blocks := c.FullScanRecurBlocked > 0 && t.blocking >= c.FullScanRecurBlocked
		counted := ""
		if !recurs && !blocks || t.runs < 2 || t.lastSeen < len(frames)-3 {
			// Seen too rarely: the counters may still prove its runs.
			if counted = countedScan(w, c, frames, tallies, t); counted == "" {
				continue
			}
		}
		table, proof, rows := planFullScan(t.explain)
		if proof == "" || rows < c.FullScanRecurMinRows {
			continue
		}
		out = append(out, recurringScan{fp: fp, text: t.text, table: orTarget(table, t.text), proof: proof,
			scanRows: rows, seenIn: t.seenIn, blocking: t.blocking, samples: samples, busy: busy, runs: t.runs, span: span,
			threads: t.threads, now: t.lastSeen == len(frames)-1, source: "processlist + " + planMethod(t.explain),
			counted: counted})
	}
	return out
}

// tallyWrites tallies the UPDATE/DELETE fingerprints (tallyRunning).
func tallyWrites(w *window, frames []*snapshot.Frame) (map[string]*fpTally, []string, int) {
	return tallyRunning(w, frames, func(c procCounts) []int32 { return c.writes })
}

// tallyRunning counts, per fingerprint of the threads pick lists from a
// frame's counts, the samples and threads running it and the runs seen
// starting: a thread newly on it, or on it again with a Time that did not
// advance with the clock (whole-second Time columns included).
func tallyRunning(w *window, frames []*snapshot.Frame, pick func(procCounts) []int32) (map[string]*fpTally, []string, int) {
	tallies := map[string]*fpTally{}
	var order []string
	samples := 0
	prevRun := map[int64]runMark{}
	for fi, f := range frames {
		s := f.Snapshot
		if s.Server.Unreachable || s.Processlist == nil && !s.HasStatus() {
			continue
		}
		samples++
		var elapsedMS int64
		if fi > 0 {
			elapsedMS = s.Time.Sub(frames[fi-1].Snapshot.Time).Milliseconds()
		}
		seenHere := map[string]bool{}
		nowRun := map[int64]runMark{}
		// The frame's counts (computed once per frame for every rule) say
		// whether anyone queues; only then are the queued threads listed.
		anyQueued := queuedIn(w, f)
		var queued []*snapshot.Process
		var queuedFP map[string]bool // per fingerprint: someone else queued
		for _, i := range pick(w.countsOf(f)) {
			if int(i) >= len(s.Processlist) {
				break // the frame was thinned after it was counted
			}
			p := &s.Processlist[i]
			fp := w.fingerprint(p.Info)
			t := tallies[fp]
			if t == nil {
				t = &fpTally{}
				tallies[fp] = t
				order = append(order, fp)
			}
			t.text = p.Info
			t.lastSeen = fi
			t.sightings++
			if !seenHere[fp] {
				seenHere[fp] = true
				t.seenIn++
				t.threads = t.threads[:0] // the newest sample it was seen in names them
				if anyQueued && queuedFP == nil {
					queued, queuedFP = queuedOnTableOrQC(s.Processlist), map[string]bool{}
				}
				if queued != nil && othersQueued(queued, fp, queuedFP) {
					t.blocking++
				}
			}
			if ex := s.Explains[fp]; ex != nil {
				t.explain = ex
			}
			nowRun[p.ID] = runMark{fp: fp, ms: p.TimeMS}
			if prev, ok := prevRun[p.ID]; !ok || prev.fp != fp || p.TimeMS < prev.ms+elapsedMS/2 {
				t.runs++
			}
			t.threads = append(t.threads, p.ID)
		}
		prevRun = nowRun
	}
	return tallies, order, samples
}

// queuedIn reports threads queued on a table-level or query cache lock in f,
// from the frame's shared counts.
func queuedIn(w *window, f *snapshot.Frame) bool {
	c := w.countsOf(f)
	return c.tlWaiting+c.qcWaiting > 0
}

// queuedOnTableOrQC returns the threads waiting for a table-level lock or
// the query cache lock: the queues a scanning write makes others join.
func queuedOnTableOrQC(ps []snapshot.Process) []*snapshot.Process {
	var out []*snapshot.Process
	for i := range ps {
		if inTableLockState(ps[i].State) || strings.EqualFold(ps[i].State, qcWaitState) {
			out = append(out, &ps[i])
		}
	}
	return out
}

// othersQueued reports a queued thread that is not running fp itself: runs
// of the same write queued behind each other harm no one else.
func othersQueued(queued []*snapshot.Process, fp string, memo map[string]bool) bool {
	if v, ok := memo[fp]; ok {
		return v
	}
	v := false
	for _, p := range queued {
		if !findsRowsToChange(p.Info) || snapshot.Fingerprint(p.Info) != fp {
			v = true
			break
		}
	}
	memo[fp] = v
	return v
}

type runMark struct {
	fp string
	ms int64
}

// findsRowsToChange: an UPDATE or DELETE, the writers that look their rows up
// by a WHERE and so can scan for them (snapshot.IsWriter says whether a
// statement writes at all).
func findsRowsToChange(q string) bool {
	v := snapshot.StatementVerb(q)
	return v == "UPDATE" || v == "DELETE"
}

// planFullScan reads a stored plan: the table it scans whole (type ALL, or
// index = a full index scan), the proof line, and the rows it reads.
func planFullScan(ex *snapshot.Explain) (table, proof string, rows int64) {
	if ex == nil || ex.Error != "" {
		return "", "", 0
	}
	for _, r := range ex.Rows {
		typ := strings.ToUpper(r.Type)
		if typ != "ALL" && typ != "INDEX" {
			continue
		}
		size := max(tableRows(ex, r.Table), r.Rows)
		key := r.Key
		if key == "" {
			key = "NULL"
		}
		return r.Table, fmt.Sprintf("plan (%s): table %s type %s, key %s, ~%s rows", planMethod(ex), r.Table,
			r.Type, key, fmtCount(size)), size
	}
	return "", "", 0
}

// orTarget prefers the statement's own schema-qualified target table.
func orTarget(planTable, text string) string {
	if t := targetTable(text); t != "" {
		return t
	}
	return planTable
}

// rowsReadPerSec estimates the rows the fingerprint reads per second: runs
// seen starting over the span times the rows each run scans (a lower bound:
// a run that starts and ends between two samples is not seen).
func (r recurringScan) rowsReadPerSec() float64 {
	if r.span <= 0 {
		return 0
	}
	return float64(r.runs) / r.span * float64(r.scanRows)
}

func (r recurringScan) title() string {
	return fmt.Sprintf("%s %s scans the whole table (~%s rows) again and again: running in %d of %d samples, "+
		"%.1f at a time", snapshot.StatementVerb(r.text), orUnknown(r.table), fmtCount(r.scanRows), r.seenIn,
		r.samples, r.busy)
}

func (r recurringScan) evidence() []string {
	ev := []string{
		fmt.Sprintf("%s (%s)", statement(r.fp), r.source),
		"  " + r.proof,
		fmt.Sprintf("  seen running in %d of the last %d samples; %.1f threads busy on it on average "+
			"(%.1f thread-seconds per second)", r.seenIn, r.samples, r.busy, r.busy),
	}
	if r.counted != "" {
		ev = append(ev, r.counted)
	}
	if r.blocking > 0 {
		ev = append(ev, fmt.Sprintf("  in %d of those samples other threads queued for a table-level or "+
			"query cache lock meanwhile", r.blocking))
	}
	if r.span > 0 {
		ev = append(ev, fmt.Sprintf("  at least %d runs seen in %s (%.1f/s): ~%s rows/s read by it", r.runs,
			fmtDuration(secondsDur(r.span)), float64(r.runs)/r.span, fmtRate(r.rowsReadPerSec())))
	}
	if cols := whereColumns(r.text); len(cols) > 0 {
		ev = append(ev, fmt.Sprintf("  %s needs an index on (%s), the columns of its WHERE", orUnknown(r.table),
			strings.Join(cols, ", ")))
	}
	return ev
}

func (r recurringScan) advice() string {
	index := "an index on the columns of its WHERE clause"
	if cols := whereColumns(r.text); len(cols) > 0 {
		index = fmt.Sprintf("an index on %s(%s)", orUnknown(r.table), strings.Join(cols, ", "))
	}
	kill := ""
	if len(r.threads) > 0 {
		when := "run it now"
		if !r.now {
			when = "ran it last"
		}
		kill = fmt.Sprintf(" To relieve the server now, stop the clients sending it (threads %s %s).",
			joinIDs(r.threads, maxThreadIDs), when)
	}
	return fmt.Sprintf("Add %s (check with EXPLAIN that it is used), or rewrite the statement so an existing "+
		"index applies (a leading-wildcard LIKE or a function on the column cannot use one).%s", index, kill)
}

func secondsDur(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// joinIDs lists up to limit thread ids, comma separated.
func joinIDs(ids []int64, limit int) string {
	parts := make([]string, 0, min(len(ids), limit))
	for _, id := range ids[:min(len(ids), limit)] {
		parts = append(parts, fmt.Sprint(id))
	}
	s := strings.Join(parts, ", ")
	if len(ids) > limit {
		s += fmt.Sprintf(" (+%d)", len(ids)-limit)
	}
	return s
}

// recurringVerdict raises the recurring scans alone (no long run to judge):
// critical when threads queue on locks meanwhile, as for a long scan.
func recurringVerdict(w *window, rs []recurringScan) verdict {
	worst := rs[0]
	for _, r := range rs[1:] {
		if r.busy > worst.busy {
			worst = r
		}
	}
	sev := snapshot.Warning
	waiters := scanWaiters(w, recurringThreads(rs), recurringTables(rs))
	if waiters > 0 {
		sev = snapshot.Critical
	}
	title := worst.title()
	if len(rs) > 1 {
		title += fmt.Sprintf(" (+%d more)", len(rs)-1)
	}
	ev := recurringEvidence(rs)
	if waiters > 0 {
		ev = append(ev, fmt.Sprintf("%d threads wait on locks of its tables meanwhile", waiters))
	}
	ev = append(ev, handlerLines(w)...)
	v := raise(sev, title, ev, worst.advice(), recurringThreads(rs))
	v.finding.Tables = recurringTables(rs)
	return v
}

func recurringEvidence(rs []recurringScan) []string {
	var ev []string
	for _, r := range rs {
		ev = append(ev, r.evidence()...)
	}
	return ev
}

func recurringThreads(rs []recurringScan) []int64 {
	var out []int64
	for _, r := range rs {
		out = append(out, r.threads...)
	}
	return out
}

func recurringTables(rs []recurringScan) []string {
	var out []string
	for _, r := range rs {
		if r.table != "" && !hasTable(out, r.table) {
			out = append(out, r.table)
		}
	}
	return out
}

// handlerLines are the supporting evidence: rows read by scans
// (Handler_read_rnd_next, Handler_read_next) against rows written.
func handlerLines(w *window) []string {
	scan, ok1 := w.rate("Handler_read_rnd_next")
	next, ok2 := w.rate("Handler_read_next")
	if !ok1 && !ok2 {
		return nil
	}
	upd, _ := w.rate("Handler_update")
	del, _ := w.rate("Handler_delete")
	line := fmt.Sprintf("server-wide: Handler_read_rnd_next %s/s, Handler_read_next %s/s against %s rows "+
		"written/s (Handler_update + Handler_delete)", fmtRate(scan), fmtRate(next), fmtRate(upd+del))
	if written := upd + del; written > 0 {
		line += fmt.Sprintf(": %s rows read per row written", fmtRate((scan+next)/written))
	}
	return []string{line}
}
