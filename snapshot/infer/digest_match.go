package infer

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// DigestMatchKey makes a server's DIGEST_TEXT (`quoted` names, upper-case
// keywords, "IN (...)") and this package's Fingerprint of a real statement
// comparable: equal keys mean the statement is very likely of that digest.
// It is how a statement of the processlist becomes a digest's sample on
// servers that keep none (MariaDB, MySQL 5.x).
func DigestMatchKey(digestText string) string {
	return matchKey(digestText)
}

// QueryMatchKey is DigestMatchKey's counterpart for a real statement.
func QueryMatchKey(query string) string {
	return matchKey(strings.ReplaceAll(snapshot.Fingerprint(query), "(?+)", "(...)"))
}

func matchKey(s string) string {
	s = strings.ReplaceAll(s, "/* , ... */", "")
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '`' || c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return strings.TrimRight(b.String(), ";")
}
