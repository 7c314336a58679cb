package analyzers

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// digestRates is the latest digest interval's statements, nil when the
// source has none (performance_schema off, an import, the first read).
func (w *window) digestRates() []snapshot.StatementRate {
	if w.snap.Statements == nil {
		return nil
	}
	return w.snap.Statements.SampleRates()
}

// digestVerb is the first word of a digest's text, upper-cased.
func digestVerb(r *snapshot.StatementRate) string {
	f := strings.Fields(r.Fingerprint)
	if len(f) == 0 {
		return ""
	}
	return strings.ToUpper(f[0])
}

// readsFarMore reports a statement that examines many rows per call and
// DigestExaminedRatio times what it sends or changes.
func readsFarMore(r *snapshot.StatementRate, c *Config) bool {
	if r.CallsPerS <= 0 {
		return false
	}
	perCall := r.RowsExaminedPerS / r.CallsPerS
	used := max(r.RowsSentPerS+r.RowsAffectedPerS, r.CallsPerS) // at least one row a call
	return perCall >= c.DigestScanMinRowsPerCall && r.RowsExaminedPerS >= c.DigestExaminedRatio*used
}

// digestLine describes one statement's interval for evidence.
func digestLine(r *snapshot.StatementRate) string {
	used := "sending"
	n := r.RowsSentPerS
	if r.RowsAffectedPerS > r.RowsSentPerS {
		used, n = "changing", r.RowsAffectedPerS
	}
	line := fmt.Sprintf("digest %s: %s calls/s, %s rows examined/s %s %s/s, %.0f ms each",
		shortDigest(r.Digest), fmtRate(r.CallsPerS), fmtRate(r.RowsExaminedPerS), used, fmtRate(n), r.AvgLatencyS*1000)
	if r.NoIndexUsed {
		line += fmt.Sprintf(", no index used in %s calls/s", fmtRate(r.NoIndexUsedPerS))
	}
	return line + ": " + truncateText(r.Fingerprint, 160)
}

func shortDigest(d string) string {
	if len(d) > 12 {
		return d[:12]
	}
	return d
}

func truncateText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// digestCauseLines names the statements with the most of value per second
// in the latest digest interval, for the rules that see a server-wide
// counter rise (tmp_disk_tables, sort_merge_passes).
func digestCauseLines(w *window, c *Config, what string, value func(*snapshot.StatementRate) float64) []string {
	var top []snapshot.StatementRate
	for _, r := range w.digestRates() {
		if value(&r) > 0 {
			top = append(top, r)
		}
	}
	sort.SliceStable(top, func(i, j int) bool { return value(&top[i]) > value(&top[j]) })
	var out []string
	for i := range top {
		if i == c.DigestCauseLines {
			break
		}
		out = append(out, fmt.Sprintf("caused by (digests, last %.0f s): %s %s/s from %s calls/s of %s",
			w.snap.Statements.Interval, fmtRate(value(&top[i])), what, fmtRate(top[i].CallsPerS),
			truncateText(top[i].Fingerprint, 160)))
	}
	return out
}

// withDigestProof adds the digests that confirm a finding the processlist
// raised: what every call of the statement did in the last interval.
func withDigestProof(v verdict, ds []snapshot.StatementRate) verdict {
	if v.finding == nil {
		return v
	}
	for i := range ds {
		if i == maxThreadLines {
			break
		}
		v.finding.Evidence = append(v.finding.Evidence, digestLine(&ds[i]))
	}
	return v
}
