package parse

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// ParseRefusedLogins counts the refused logins in error log text: MariaDB's
// and MySQL 5.7's "[Warning] Access denied for user 'app'@'10.0.0.7' (using
// password: YES)", MySQL 8's "[Note] [MY-010926] [Server] Access denied for
// user ...", and "Aborted connection N to db: 'unconnected' user:
// 'unauthenticated' host: '10.0.0.7' (...)", a handshake that never logged
// in. Most first.
func ParseRefusedLogins(text string) []snapshot.LoginRefusal {
	idx := map[snapshot.LoginRefusal]int{}
	var out []snapshot.LoginRefusal
	add := func(user, host, reason string) {
		k := snapshot.LoginRefusal{User: user, Host: host, Reason: reason}
		if i, ok := idx[k]; ok {
			out[i].Count++
			return
		}
		idx[k] = len(out)
		k.Count = 1
		out = append(out, k)
	}
	for line := range strings.SplitSeq(text, "\n") {
		if _, rest, ok := strings.Cut(line, "Access denied for user '"); ok {
			user, rest, ok1 := strings.Cut(rest, "'@'")
			host, _, ok2 := strings.Cut(rest, "'")
			if ok1 && ok2 {
				add(user, host, snapshot.RefusedAccessDenied)
			}
			continue
		}
		if strings.Contains(line, "Aborted connection ") && strings.Contains(line, "user: 'unauthenticated'") {
			if _, rest, ok := strings.Cut(line, " host: '"); ok {
				host, _, _ := strings.Cut(rest, "'")
				add("", host, snapshot.RefusedBeforeLogin)
			}
		}
	}
	for i := 1; i < len(out); i++ { // stable, by count
		for j := i; j > 0 && out[j].Count > out[j-1].Count; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
