package recording

import (
	"sort"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// redacted returns a copy of s with every literal in statement text (the
// fields snapshot.Parts declares) replaced by "?" (snapshot.Redact). s itself
// is never modified: the dashboard shows the same Snapshot unredacted. The
// raw InnoDB status is dropped, because it quotes statements in places no
// parser can promise to find; its parsed sections stay.
func redacted(s *snapshot.Snapshot) *snapshot.Snapshot {
	return s.WithTextRewritten(snapshot.TextKind.Redact)
}

// queryTexts lists the distinct statement texts of the unredacted s (and the
// errors quoting one: a replication error quotes the failed statement and
// the duplicate value), so findings quoting them can be scrubbed.
func queryTexts(s *snapshot.Snapshot) []quote {
	seen := map[string]snapshot.TextKind{}
	s.EachText(func(k snapshot.TextKind, q string) {
		if k.Quotable() && strings.TrimSpace(q) != "" {
			seen[q] = k
		}
	})
	out := make([]quote, 0, len(seen))
	for q, k := range seen {
		out = append(out, quote{q, k})
	}
	return out
}

// quote is a text findings may quote, and its kind, which says how a
// quotation of it is redacted.
type quote struct {
	text string
	kind snapshot.TextKind
}

// minQuotedPrefix is the shortest query prefix treated as a quotation when a
// finding cites a truncated statement.
const minQuotedPrefix = 12

// scrubQuotes replaces, in text, each query of queries (or the longest prefix
// of it that text quotes, since findings often truncate statements) with its
// redacted form. Findings keep their own numbers; only quoted SQL changes.
// Statements often share a prefix ("SELECT … WHERE id = 4"), so the longest
// quotation is replaced first: a shorter match of a sibling statement must
// not cut a literal in two.
func scrubQuotes(text string, queries []quote) string {
	type match struct {
		q quote
		n int
	}
	var ms []match
	for _, q := range queries {
		if n := quotedPrefixLen(text, q.text); n > 0 {
			ms = append(ms, match{q, n})
		}
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].n > ms[j].n })
	for _, m := range ms {
		if n := quotedPrefixLen(text, m.q.text); n > 0 {
			text = strings.ReplaceAll(text, m.q.text[:n], m.q.kind.Redact(m.q.text[:n]))
		}
	}
	return text
}

// quotedPrefixLen returns the length of the longest prefix of q (at least
// minQuotedPrefix bytes) contained in text, or 0. Containment of prefixes is
// monotone in length, so a binary search finds it.
func quotedPrefixLen(text, q string) int {
	if len(q) < minQuotedPrefix || !strings.Contains(text, q[:minQuotedPrefix]) {
		return 0
	}
	lo, hi := minQuotedPrefix, len(q) // text contains q[:lo]
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if strings.Contains(text, q[:mid]) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// redactedFindings returns copies of fs with quoted statements of s scrubbed.
func redactedFindings(fs []snapshot.Finding, s *snapshot.Snapshot) []snapshot.Finding {
	if len(fs) == 0 {
		return fs
	}
	queries := queryTexts(s)
	out := make([]snapshot.Finding, len(fs))
	for i, f := range fs {
		f.Title = scrubQuotes(f.Title, queries)
		f.Advice = scrubQuotes(f.Advice, queries)
		ev := make([]string, len(f.Evidence))
		for j, e := range f.Evidence {
			ev[j] = scrubQuotes(e, queries)
		}
		f.Evidence = ev
		f.RootBlockers = redactedRootBlockers(f.RootBlockers, queries)
		out[i] = f
	}
	return out
}
