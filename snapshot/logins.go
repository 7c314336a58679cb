package snapshot

import "strings"

// RefusedLogins is what the server's error log says about the logins it
// refused since the previous read: the accounts and hosts that counters such
// as Access_denied_errors do not name. Read only when the server is on this
// machine, its log is readable, and those counters moved.
type RefusedLogins struct {
	// Log is the error log's path.
	Log      string         `json:"log"`
	Refusals []LoginRefusal `json:"refusals,omitempty"`
	// Truncated: more was appended than one read takes; the rest was skipped.
	Truncated bool `json:"truncated,omitempty"`
}

// LoginRefusal counts one account's refused logins of one kind.
type LoginRefusal struct {
	User string `json:"user,omitempty"` // "" when the server did not learn it
	Host string `json:"host,omitempty"`
	// Reason is RefusedAccessDenied or RefusedBeforeLogin.
	Reason string `json:"reason"`
	Count  int    `json:"count"`
}

// Refusal reasons.
const (
	RefusedAccessDenied = "access denied"
	RefusedBeforeLogin  = "aborted before login"
)

// ParseRefusedLogins counts the refused logins in error log text: MariaDB's
// and MySQL 5.7's "[Warning] Access denied for user 'app'@'10.0.0.7' (using
// password: YES)", MySQL 8's "[Note] [MY-010926] [Server] Access denied for
// user ...", and "Aborted connection N to db: 'unconnected' user:
// 'unauthenticated' host: '10.0.0.7' (...)", a handshake that never logged
// in. Most first.
func ParseRefusedLogins(text string) []LoginRefusal {
	idx := map[LoginRefusal]int{}
	var out []LoginRefusal
	add := func(user, host, reason string) {
		k := LoginRefusal{User: user, Host: host, Reason: reason}
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
				add(user, host, RefusedAccessDenied)
			}
			continue
		}
		if strings.Contains(line, "Aborted connection ") && strings.Contains(line, "user: 'unauthenticated'") {
			if _, rest, ok := strings.Cut(line, " host: '"); ok {
				host, _, _ := strings.Cut(rest, "'")
				add("", host, RefusedBeforeLogin)
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
