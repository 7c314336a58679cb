package analyzers

import (
	"regexp"
	"strconv"
	"strings"
)

// Statement-text helpers. They read the raw processlist text (the fingerprint
// replaces the numbers they need) and only ever add detail to evidence or
// advice: no rule raises above info severity from the text alone.
var (
	limitCommaRe  = regexp.MustCompile(`(?i)\bLIMIT\s+(\d+)\s*,\s*(\d+)`)
	limitOffsetRe = regexp.MustCompile(`(?i)\bLIMIT\s+(\d+)\s+OFFSET\s+(\d+)`)
	updateTableRe = regexp.MustCompile("(?i)^\\s*UPDATE\\s+(?:LOW_PRIORITY\\s+)?(?:IGNORE\\s+)?([`\\w.$]+)")
	deleteTableRe = regexp.MustCompile("(?i)^\\s*DELETE\\s+(?:LOW_PRIORITY\\s+)?(?:QUICK\\s+)?(?:IGNORE\\s+)?FROM\\s+([`\\w.$]+)")
	whereRe       = regexp.MustCompile(`(?is)\bWHERE\b(.*)`)
	whereColRe    = regexp.MustCompile("(?i)([`\\w.$]+)\\s*(?:=|<>|!=|<=|>=|<|>|\\bIN\\b|\\bLIKE\\b|\\bBETWEEN\\b|\\bIS\\b)")
	leadCommentRe = regexp.MustCompile(`^\s*(?:/\*.*?\*/\s*)+`)
	tailClauseRe  = regexp.MustCompile(`(?is)\b(?:ORDER\s+BY|GROUP\s+BY|LIMIT|HAVING)\b.*`)
)

// limitOffset returns the largest OFFSET in q ("LIMIT m OFFSET n" or "LIMIT n, m").
func limitOffset(q string) (int64, bool) {
	var best int64
	found := false
	take := func(s string) {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && n >= best {
			best, found = n, true
		}
	}
	for _, m := range limitCommaRe.FindAllStringSubmatch(q, -1) {
		take(m[1])
	}
	for _, m := range limitOffsetRe.FindAllStringSubmatch(q, -1) {
		take(m[2])
	}
	return best, found
}

// targetTable returns the table an UPDATE or DELETE changes, without quotes.
func targetTable(q string) string {
	q = leadCommentRe.ReplaceAllString(q, "")
	for _, re := range []*regexp.Regexp{updateTableRe, deleteTableRe} {
		if m := re.FindStringSubmatch(q); m != nil {
			return strings.ReplaceAll(m[1], "`", "")
		}
	}
	return ""
}

// whereColumns returns the columns compared in q's WHERE clause, in order,
// without duplicates; nil when there is no WHERE.
func whereColumns(q string) []string {
	m := whereRe.FindStringSubmatch(q)
	if m == nil {
		return nil
	}
	clause := tailClauseRe.ReplaceAllString(m[1], "")
	seen := map[string]bool{}
	var cols []string
	for _, c := range whereColRe.FindAllStringSubmatch(clause, -1) {
		col := strings.ReplaceAll(c[1], "`", "")
		if _, err := strconv.ParseFloat(col, 64); err == nil || seen[col] {
			continue
		}
		seen[col] = true
		cols = append(cols, col)
	}
	return cols
}

// hasWhere reports whether q has a WHERE clause.
func hasWhere(q string) bool { return whereRe.MatchString(q) }

// sameTable compares table names, ignoring a schema prefix on either side.
func sameTable(a, b string) bool {
	a, b = strings.ReplaceAll(a, "`", ""), strings.ReplaceAll(b, "`", "")
	if strings.EqualFold(a, b) {
		return true
	}
	return strings.EqualFold(baseName(a), baseName(b))
}

func baseName(t string) string {
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		return t[i+1:]
	}
	return t
}
