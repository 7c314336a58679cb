package analyzers

import (
	"regexp"
	"strings"
)

// tableRefRe finds the tables a statement names after FROM, JOIN, UPDATE or
// INTO. It reads only the first table of a comma list: enough to tell which
// tables a queue of waiters wants, which is all the cause links need.
var tableRefRe = regexp.MustCompile("(?i)\\b(?:FROM|JOIN|UPDATE|INTO)\\s+(?:LOW_PRIORITY\\s+|IGNORE\\s+|QUICK\\s+)*([`\\w.$]+)")

// statementTables returns the tables q names, without quotes, once each.
func statementTables(q string) []string {
	var out []string
	for _, m := range tableRefRe.FindAllStringSubmatch(q, -1) {
		t := strings.ReplaceAll(m[1], "`", "")
		if t == "" || strings.EqualFold(t, "SELECT") || hasTable(out, t) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// hasTable reports whether list holds t (schema prefix ignored on either side).
func hasTable(list []string, t string) bool {
	for _, l := range list {
		if sameTable(l, t) {
			return true
		}
	}
	return false
}

// anyTableIn reports whether any of a is in b.
func anyTableIn(a, b []string) bool {
	for _, t := range a {
		if hasTable(b, t) {
			return true
		}
	}
	return false
}
