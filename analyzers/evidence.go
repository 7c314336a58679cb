package analyzers

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Evidence limits keep a finding readable in the findings panel.
const (
	maxContextLines = 3    // threads shown as context rather than as the subject
	longStatementMS = 1000 // statements running this long are worth naming as context
	maxThreadLines  = 5
	maxStatements   = 3
	maxThreadIDs    = 50
	maxSQLChars     = 120
)

// threadHead writes "thread 12 app@10.0.0.12 db shop, 45 s in "state"".
func threadHead(b *strings.Builder, p *snapshot.Process) {
	fmt.Fprintf(b, "thread %d %s", p.ID, userHost(p))
	if p.DB != "" {
		fmt.Fprintf(b, " db %s", p.DB)
	}
	fmt.Fprintf(b, ", %s", fmtMS(p.TimeMS))
	if p.State != "" {
		fmt.Fprintf(b, " in %q", p.State)
	}
}

// threadLine names one thread: id, user@host, db, time and state.
func threadLine(p *snapshot.Process) string {
	var b strings.Builder
	threadHead(&b, p)
	if p.State == "" && p.Command == "Sleep" {
		// An idle session holding locks is the usual blocker: say it is idle.
		b.WriteString(" idle (Sleep)")
	}
	if p.ExaminedRows > 0 {
		fmt.Fprintf(&b, ", %s rows examined", fmtCount(p.ExaminedRows))
	}
	if p.Info != "" {
		fmt.Fprintf(&b, ": %s", statement(p.Info))
	}
	return b.String()
}

func userHost(p *snapshot.Process) string {
	host := p.Host
	if i := strings.LastIndexByte(host, ':'); i > 0 {
		host = host[:i] // the client port changes per connection and says nothing
	}
	if host == "" {
		return p.User
	}
	return p.User + "@" + host
}

// threadLines describes at most maxThreadLines threads, with a count of the rest.
func threadLines(ps []*snapshot.Process) []string {
	var out []string
	for i, p := range ps {
		if i == maxThreadLines {
			out = append(out, fmt.Sprintf("… and %d more threads", len(ps)-i))
			break
		}
		out = append(out, threadLine(p))
	}
	return out
}

// statement is the fingerprint of a query, cut to a readable length.
func statement(q string) string {
	return clip(snapshot.Fingerprint(q), maxSQLChars)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// topStatements groups threads by fingerprint: "12 × SELECT … WHERE id = ?".
func topStatements(ps []*snapshot.Process) []string {
	counts := map[string]int{}
	for _, p := range ps {
		if p.Info != "" {
			counts[statement(p.Info)]++
		}
	}
	var out []string
	for _, k := range mostCounted(counts, maxStatements) {
		out = append(out, fmt.Sprintf("%d × %s", counts[k], k))
	}
	return out
}

// mostCounted is counts' keys, most counted first, at most n of them.
func mostCounted(counts map[string]int, n int) []string {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sortByCount(keys, counts)
	return keys[:min(n, len(keys))]
}

// counterLine shows a counter per second and per interval:
// "Innodb_buffer_pool_reads 120/s (360 in 3.0 s)".
func (w *window) counterLine(name string) string {
	r, ok := w.rate(name)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s %s/s (%s in %.1f s)", name, fmtRate(r), fmtCount(int64(r*w.rates.Interval+0.5)), w.rates.Interval)
}

// counterLines returns the counter lines of names that have a rate.
func (w *window) counterLines(names ...string) []string {
	var out []string
	for _, n := range names {
		if l := w.counterLine(n); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// fmtCount writes n with thousands separators.
func fmtCount(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// fmtRate writes a per-second figure: whole numbers from 10 up, one decimal below.
func fmtRate(v float64) string {
	if v >= 10 {
		return fmtCount(int64(v + 0.5))
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// fmtMS writes a duration given in milliseconds the way the processlist does.
func fmtMS(ms int64) string { return fmtDuration(time.Duration(ms) * time.Millisecond) }

func fmtDuration(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + " s"
	case d < 2*time.Hour:
		return strconv.FormatInt(int64(d.Seconds()), 10) + " s"
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// appendNonEmpty appends the lines that are not empty.
func appendNonEmpty(dst []string, lines ...string) []string {
	for _, l := range lines {
		if l != "" {
			dst = append(dst, l)
		}
	}
	return dst
}

// fmtBytes writes a size in binary units as my.cnf spells them.
func fmtBytes(b float64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1fG", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.0fM", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.0fK", b/(1<<10))
	}
	return fmt.Sprintf("%.0f", b)
}

// sortByCount orders keys by count descending, then by name.
func sortByCount(keys []string, count map[string]int) {
	sort.Slice(keys, func(i, j int) bool {
		if count[keys[i]] != count[keys[j]] {
			return count[keys[i]] > count[keys[j]]
		}
		return keys[i] < keys[j]
	})
}

// longRunningLines names the longest-running statements as context:
// "running: thread …".
func (w *window) longRunningLines() []string {
	long := w.processes().running(longStatementMS, "SELECT", "UPDATE", "DELETE", "INSERT", "REPLACE")
	var out []string
	for _, l := range threadLines(long[:min(len(long), maxContextLines)]) {
		out = append(out, "running: "+l)
	}
	return out
}
