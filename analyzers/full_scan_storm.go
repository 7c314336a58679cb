package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Full scans in a capture that holds no statements: `mysqladmin ext` output,
// shell loops of SHOW GLOBAL STATUS. Every other scan rule names a statement
// (full_scan_select, full_scan_update, runaway_query), so a storm of SELECTs
// that lost their index (36 scans of 200,000 rows a second in the incident)
// named nothing there. The counters prove what they can: Select_scan counts
// the scans begun, Handler_read_rnd_next the rows they read, so their ratio
// is the rows of the table read whole; and the rows sent (Rows_sent, else
// Bytes_sent) say whether the scans return what they read. A dump or an
// export reads a whole table to send all of it, so it sends as much as it
// reads and stays quiet: with no processlist the tool cannot be seen, and
// the counters cannot tell it from any other statement that wants every row
// (which no index would spare). Scans that read far more than they send
// filter their rows with no usable index. Which statements, and which
// table, the counters cannot say, and the finding says so. Where statements
// are known (a processlist, digests) the scan rules that name them own the
// incident and this one stays quiet.

// IDFullScanStorm names the findings of full_scan_storm: a contract (the
// README's findings table), stable, never reused.
const IDFullScanStorm = "full_scan_storm"

// fullScanStormRule is full_scan_storm in the rules table (rule.go): a rate
// held 5 s (PTS's 5 × 1 s, as the other held counter rates), judged over the
// hold's span so one second between scans does not start it again.
var fullScanStormRule = rule{id: IDFullScanStorm, check: checkFullScanStorm,
	persist: persistFor(5*time.Second, 10*time.Second), held: true}

// scanCounters are the status counters the rule reads.
var scanCounters = []string{"Select_scan", "Handler_read_rnd_next"}

func checkFullScanStorm(w *window, c *Config) verdict {
	if r := w.statusNA(scanCounters...); r != "" {
		return notApplicable(r)
	}
	if statementsKnown(w) || w.warmingUp(c) != "" {
		return quiet()
	}
	scans, ok1 := w.rate("Select_scan")
	rows, ok2 := w.rate("Handler_read_rnd_next")
	if !ok1 || !ok2 || scans < c.FullScanSelectMinCalls || rows < scans*float64(c.FullScanRecurMinRows) {
		return quiet()
	}
	sent, filters := scansFilter(w, c, rows)
	if !filters {
		return quiet()
	}
	scans, rows, over := scanMeans(w, scans, rows)
	perScan := rows / scans
	title := fmt.Sprintf("full table scans again and again: %s scans/s of ~%s rows each (%s rows/s); the "+
		"statements are not in this capture", fmtRate(scans), fmtCount(int64(perScan)), fmtRate(rows))
	ev := w.counterLines(scanCounters...)
	ev = append(ev, fmt.Sprintf("~%s rows read per scan begun %s: a table of at least that many rows is read "+
		"whole each time", fmtCount(int64(perScan)), over), sent)
	if sel, ok := w.rate("Com_select"); ok && sel >= scans {
		ev = append(ev, fmt.Sprintf("Com_select %s/s: %.0f %% of the SELECTs scan a table", fmtRate(sel),
			100*scans/sel))
	}
	ev = append(ev, "what the counters cannot say: which statements and which table (this capture has no "+
		"processlist and no statement digests); a report aggregating a whole table (COUNT, SUM with no WHERE) "+
		"sent again and again would look the same")
	advice := fmt.Sprintf("Find the statements: capture the processlist beside the counters (SHOW FULL "+
		"PROCESSLIST each second, pt-stalk, or mytop-go record), or read performance_schema's "+
		"events_statements_summary_by_digest by SUM_NO_INDEX_USED, or the slow log with "+
		"log_queries_not_using_indexes. The table is one of about %s rows or more (information_schema.TABLES "+
		"TABLE_ROWS). EXPLAIN the statement (type ALL) and add the index on the columns of its WHERE clause.",
		fmtCount(int64(perScan)))
	return raise(snapshot.Warning, title, ev, advice, nil)
}

// scanMeans are the scans and rows read a second over the last 5 s, and
// what they are over: steadier than one interval's (a scan begun in one
// second reads most of its rows in the next), the interval's own when the
// window is shorter. The signal stays the interval's, judged over the hold.
func scanMeans(w *window, scans, rows float64) (float64, float64, string) {
	a, ok1 := w.spanOver("Select_scan", 5*time.Second, 2*time.Second)
	b, ok2 := w.spanOver("Handler_read_rnd_next", 5*time.Second, 2*time.Second)
	if !ok1 || !ok2 || a.delta <= 0 {
		return scans, rows, "this interval"
	}
	return a.perSec(), b.perSec(), fmt.Sprintf("over the last %.0f s", a.elapsed.Seconds())
}

// statementsKnown reports a source that shows the statements (a processlist
// or digests): the scan rules that name them judge the scans there.
func statementsKnown(w *window) bool {
	return w.unavailable(snapshot.CollectorProcesslist) == "" || w.snap.Statements != nil
}

// scansFilter reports whether the rows read by scans far outnumber what the
// server sends, with the line that shows it: rows sent (MariaDB's Rows_sent)
// at most 1/DigestExaminedRatio of the rows read, else (MySQL) under
// FullScanStormBytesPerRow bytes sent a row read. A source with neither
// proves nothing: a dump sends all it reads.
func scansFilter(w *window, c *Config, rows float64) (string, bool) {
	if sent, ok := w.rate("Rows_sent"); ok {
		if sent*c.DigestExaminedRatio > rows {
			return "", false
		}
		return fmt.Sprintf("Rows_sent %s/s: one row sent for every %s read, so the scans filter rows with no "+
			"usable index (a dump or an export sends every row it reads)", fmtRate(sent),
			fmtCount(int64(rows/max(sent, 1)))), true
	}
	if bytes, ok := w.rate("Bytes_sent"); ok {
		if bytes >= c.FullScanStormBytesPerRow*rows {
			return "", false
		}
		return fmt.Sprintf("Bytes_sent %s/s: %.2g bytes sent for each row read, so the scans filter rows with "+
			"no usable index (a dump or an export sends every row it reads)", fmtRate(bytes), bytes/rows), true
	}
	return "", false
}
