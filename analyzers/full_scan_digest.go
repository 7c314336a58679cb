package analyzers

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Short UPDATE/DELETEs that scan a table are over before a 1-s sample sees
// them; the server's digests count every one (FTS-01). A digest whose plan
// used no index (NO_INDEX_USED) and that examines DigestExaminedRatio times
// the rows it changes, at least DigestScanMinRowsPerCall a call, is the
// proof. The processlist path (full_scan_update.go) speaks first; this one
// answers when it sees nothing running.

// fullScanDigests are the latest interval's scanning UPDATE/DELETE digests,
// most rows examined first.
func fullScanDigests(w *window, c *Config) []snapshot.StatementRate {
	var out []snapshot.StatementRate
	for _, r := range w.digestRates() {
		v := digestVerb(&r)
		if (v == "UPDATE" || v == "DELETE") && r.NoIndexUsed && readsFarMore(&r, c) {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].RowsExaminedPerS > out[j].RowsExaminedPerS })
	return out
}

// digestText makes a digest's text readable by the statement parsers:
// `d` . `t` becomes d.t.
func digestText(fp string) string {
	return strings.ReplaceAll(strings.ReplaceAll(fp, " . ", "."), "`", "")
}

func checkFullScanDigests(w *window, c *Config) verdict {
	found := fullScanDigests(w, c)
	if len(found) == 0 {
		return quiet()
	}
	worst := &found[0]
	text := digestText(worst.Fingerprint)
	table := targetTable(text)
	title := fmt.Sprintf("%s %s scans the whole table %s times/s, %s rows examined each (digests)",
		digestVerb(worst), orUnknown(table), fmtRate(worst.CallsPerS), fmtCount(int64(worst.RowsExaminedPerS/worst.CallsPerS)))
	if len(found) > 1 {
		title += fmt.Sprintf(" (+%d more)", len(found)-1)
	}
	var ev []string
	for i := range found {
		if i == maxThreadLines {
			ev = append(ev, fmt.Sprintf("… and %d more statements", len(found)-i))
			break
		}
		ev = append(ev, digestLine(&found[i]))
	}
	sev := snapshot.Warning
	var tables []string
	if table != "" {
		tables = []string{table}
	}
	if n := scanWaiters(w, nil, tables); n > 0 {
		sev = snapshot.Critical
		ev = append(ev, fmt.Sprintf("%d threads wait on locks of %s meanwhile", n, table))
	}
	ev = appendNonEmpty(ev, w.counterLine("Handler_read_rnd_next"), w.counterLine("Innodb_rows_read"))
	index := "an index on the columns of its WHERE clause"
	if cols := whereColumns(text); len(cols) > 0 {
		index = fmt.Sprintf("an index on %s(%s)", orUnknown(table), strings.Join(cols, ", "))
	}
	return raise(sev, title, ev, fmt.Sprintf("Add %s; each call reads the whole table (and InnoDB locks what it "+
		"reads). Check the plan with EXPLAIN on the statement's sample (statements view: S, then e).", index), nil)
}
