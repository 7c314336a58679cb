package analyzers

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Statement-text helpers. They read the raw processlist text (the fingerprint
// replaces the numbers they need) and only ever add detail to evidence or
// advice: no rule raises above info severity from the text alone.
var (
	updateTableRe = regexp.MustCompile("(?i)^\\s*UPDATE\\s+(?:LOW_PRIORITY\\s+)?(?:IGNORE\\s+)?([`\\w.$]+)")
	deleteTableRe = regexp.MustCompile("(?i)^\\s*DELETE\\s+(?:LOW_PRIORITY\\s+)?(?:QUICK\\s+)?(?:IGNORE\\s+)?FROM\\s+([`\\w.$]+)")
	whereRe       = regexp.MustCompile(`(?is)\bWHERE\b(.*)`)
	whereColRe    = regexp.MustCompile("(?i)([`\\w.$]+)\\s*(?:=|<>|!=|<=|>=|<|>|\\bIN\\b|\\bLIKE\\b|\\bBETWEEN\\b|\\bIS\\b)")
	leadCommentRe = regexp.MustCompile(`^\s*(?:/\*.*?\*/\s*)+`)
	tailClauseRe  = regexp.MustCompile(`(?is)\b(?:ORDER\s+BY|GROUP\s+BY|LIMIT|HAVING)\b.*`)
)

// limitOffset returns the largest OFFSET in q ("LIMIT m OFFSET n" or
// "LIMIT n, m"). It scans by hand: it runs on every running SELECT each tick.
func limitOffset(q string) (int64, bool) {
	var best int64
	found := false
	for i := indexWord(q, "limit", 0); i >= 0; i = indexWord(q, "limit", i+5) {
		if off, ok := offsetAfterLimit(q[i+5:]); ok && off >= best {
			best, found = off, true
		}
	}
	return best, found
}

// offsetAfterLimit reads " 20 OFFSET 60000" or " 60000, 20".
func offsetAfterLimit(rest string) (int64, bool) {
	first, rest, ok := number(skipSpace(rest))
	if !ok {
		return 0, false
	}
	rest = skipSpace(rest)
	if strings.HasPrefix(rest, ",") {
		if _, _, ok := number(skipSpace(rest[1:])); ok {
			return first, true
		}
		return 0, false
	}
	if len(rest) > 6 && strings.EqualFold(rest[:6], "offset") {
		off, _, ok := number(skipSpace(rest[6:]))
		return off, ok
	}
	return 0, false
}

// indexWord finds word (lower case) in s from byte from, ignoring case, as a
// whole word; -1 if absent.
func indexWord(s, word string, from int) int {
	for i := from; i+len(word) <= len(s); i++ {
		if s[i]|0x20 != word[0] || !strings.EqualFold(s[i:i+len(word)], word) {
			continue
		}
		before := i == 0 || !snapshot.IsWordByte(s[i-1])
		after := i+len(word) == len(s) || !snapshot.IsWordByte(s[i+len(word)])
		if before && after {
			return i
		}
	}
	return -1
}

func skipSpace(s string) string { return strings.TrimLeft(s, " \t\r\n") }

// number reads leading decimal digits.
func number(s string) (int64, string, bool) {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 0 {
		return 0, s, false
	}
	v, err := strconv.ParseInt(s[:n], 10, 64)
	return v, s[n:], err == nil
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

// showRoutinesRe is a dump's listing of a schema's stored programs.
var showRoutinesRe = regexp.MustCompile(`^\s*SHOW\s+(FUNCTION|PROCEDURE|PACKAGE(\s+BODY)?)\s+STATUS\b|^\s*SHOW\s+EVENTS\b`)
