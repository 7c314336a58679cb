package analyzers

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Deep pages are short, so samples of the processlist catch them only now
// and then; the server's digests count them all (deep_offset_pagination in
// docs/rules-catalogue.md). A SELECT digest
// with LIMIT … OFFSET that examines DigestExaminedRatio times the rows it
// sends, at least DeepOffsetMin a call, is the proof: the rows skipped.
// (Such pages often use an index, the primary key, so NO_INDEX_USED is
// reported but not required.)

// deepOffsetDigests are the latest interval's deep-page digests, most rows
// examined first.
func deepOffsetDigests(w *window, c *Config) []snapshot.StatementRate {
	var out []snapshot.StatementRate
	for _, r := range w.digestRates() {
		if digestVerb(&r) != "SELECT" || !hasOffset(r.Fingerprint) || !readsFarMore(&r, c) || routineDigest(w, &r) {
			continue
		}
		if r.RowsExaminedPerS/r.CallsPerS >= float64(c.DeepOffsetMin) {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].RowsExaminedPerS > out[j].RowsExaminedPerS })
	return out
}

// hasOffset reports a digest text paging with LIMIT ? OFFSET ? or LIMIT ?, ?.
func hasOffset(fp string) bool {
	up := strings.ToUpper(fp)
	i := strings.LastIndex(up, "LIMIT ")
	if i < 0 {
		return false
	}
	tail := up[i:]
	return strings.Contains(tail, "OFFSET") || strings.Contains(tail, ",")
}

func checkDeepOffsetDigests(w *window, c *Config) verdict {
	found := deepOffsetDigests(w, c)
	if len(found) == 0 {
		return quiet()
	}
	worst := &found[0]
	perCall := worst.RowsExaminedPerS / worst.CallsPerS
	title := fmt.Sprintf("SELECTs page with LIMIT … OFFSET, reading %s rows a call to send %s (digests)",
		fmtCount(int64(perCall)), fmtCount(int64((worst.RowsSentPerS+worst.CallsPerS-1)/worst.CallsPerS)))
	var ev []string
	for i := range found {
		if i == maxThreadLines {
			ev = append(ev, fmt.Sprintf("… and %d more", len(found)-i))
			break
		}
		ev = append(ev, digestLine(&found[i]))
	}
	ev = appendNonEmpty(ev, w.counterLine("Handler_read_next"), w.counterLine("Innodb_rows_read"))
	return raise(snapshot.Warning, title, ev,
		"Use key-set (seek) pagination instead of OFFSET: remember the last key of the page and ask for "+
			"WHERE key > :last ORDER BY key LIMIT n, with an index on the ordering columns; or cap how deep "+
			"users may page.", nil)
}
