package analyzers

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Connection errors: the server refuses logins (CONN-01). An application
// deployed with a wrong password, an expired account, a blocked host or a
// user at its max_user_connections fails every connection while the server
// itself looks healthy: the monthly-incident reproductions's reproduction refused 334 logins a second
// and nothing was said. Judged from Δ Aborted_connects (every failed
// attempt, handshakes included) and the server-side Connection_errors_*
// counters; Δ Access_denied_errors says how many of the failures were
// credentials refused, never more than Aborted_connects allows: MariaDB
// counts there too every statement refused a privilege (a SELECT on a
// table the account may not read), which is no login (splitDenials); the accounts and hosts are named
// from the error log (collectors/errorlog.go) when the server is local and
// its log readable, else said to be unknown. A host blocked by
// max_connect_errors and an account at its connection limit are named from
// the host cache and mysql.user (connection_limits.go), and raise the
// finding even when the refusals are few. Connection_errors_max_connections
// is connections_near_max's.

// ConnErrConfig holds connection_errors' thresholds. Embedded in Config.
type ConnErrConfig struct {
	// ConnRefusedPerSecWarn: failed logins per second (Δ Aborted_connects)
	// at or above which logins are
	// failing (ZBX {$MYSQL.ABORTED_CONN.MAX.WARN} = 3/s). Trap: a person
	// mistyping a password fails once or twice a minute; three a second for
	// three seconds is a program.
	ConnRefusedPerSecWarn float64
	// ConnRefusedShareCrit: % of connection attempts (Δ Connections counts
	// them all) refused, at or above which a client is effectively down
	// (design; MT badprints 3 % since start-up, CONN-01; half is an
	// outage for whoever is refused). Trap: MT's ratio since start-up keeps
	// last month's bad deploy; judged per interval.
	ConnRefusedShareCrit float64
	// ConnServerErrorsWarn: Connection_errors_accept, _internal, _select,
	// _tcpwrap, _peer_address per second (ZBX treats any refused connection
	// as a problem; design: any rise, held 3 s). Trap: counters since
	// start-up; only rises count.
	ConnServerErrorsWarn float64
	// ConnRefusalLookback: how many recent frames' error log lines are
	// summed to name who is refused (design: enough to cover the onset).
	// Trap: one tick's lines may name only the last of several accounts.
	ConnRefusalLookback int
}

func (c *ConnErrConfig) defaults() {
	*c = ConnErrConfig{ConnRefusedPerSecWarn: 3, ConnRefusedShareCrit: 50, ConnServerErrorsWarn: 0.01,
		ConnRefusalLookback: 10}
}

// serverConnErrors are the Connection_errors_* counters of the server's own
// failures (max_connections is connections_near_max's).
var serverConnErrors = []string{"Connection_errors_accept", "Connection_errors_internal",
	"Connection_errors_select", "Connection_errors_tcpwrap", "Connection_errors_peer_address"}

// IDConnectionErrors names the findings of connection_errors: a contract (the
// README's findings table), stable, never reused.
const IDConnectionErrors = "connection_errors"

// connectionErrorsRule is connection_errors in the rules table (rule.go).
// Three seconds of refusals is a program, not a typo (ZBX asks 5 minutes; an
// outage of a client should not wait that long); 10 s to clear, as the
// refusals of a retrying client come in bursts.
var connectionErrorsRule = rule{id: IDConnectionErrors, check: checkConnectionErrors,
	persist: persistFor(3*time.Second, 10*time.Second), held: true}

func checkConnectionErrors(w *window, c *Config) verdict {
	if r := w.statusNA("Aborted_connects", "Connections"); r != "" {
		return notApplicable(r)
	}
	if w.warmingUp(c) != "" {
		return quiet()
	}
	aborted, _ := w.rate("Aborted_connects")
	pre, _ := w.rate("Aborted_connects_preauth")
	allDenied, hasDenied := w.rate("Access_denied_errors")
	denied, stmtDenied := splitDenials(aborted, pre, allDenied)
	failed := aborted
	attempts, _ := w.rate("Connections")
	var serverErrs []string
	for _, n := range serverConnErrors {
		if r, ok := w.rate(n); ok && r >= c.ConnServerErrorsWarn && r > 0 {
			serverErrs = append(serverErrs, fmt.Sprintf("%s %s/s", n, fmtRate(r)))
		}
	}
	blocked := blockedHosts(w, c)
	var atLimit []accountUse
	refusedAfter := 0.0
	if at := accountsAtLimit(w); len(at) > 0 {
		if refusedAfter = refusedAfterAuth(w, c); refusedAfter > 0 {
			atLimit = at
		}
	}
	if failed < c.ConnRefusedPerSecWarn && len(serverErrs) == 0 && len(atLimit) == 0 && len(blocked) == 0 {
		return quiet()
	}
	share := 0.0
	if attempts > 0 {
		share = 100 * min(failed/attempts, 1)
	}
	sev := snapshot.Warning
	if failed >= c.ConnRefusedPerSecWarn && share >= c.ConnRefusedShareCrit {
		sev = snapshot.Critical
	}
	for _, h := range blocked {
		if h.refused > 0 { // its clients are turned away now
			sev = snapshot.Critical
		}
	}
	var title string
	switch {
	case len(blocked) > 0:
		title = blockedTitle(w, blocked)
	case len(atLimit) > 0:
		title = limitTitle(atLimit[0])
	case failed >= c.ConnRefusedPerSecWarn:
		title = fmt.Sprintf("%s refused logins/s (%.0f %% of %s connection attempts/s)", fmtRate(failed), share,
			fmtRate(attempts))
		if who := topRefused(w, c); who != "" {
			title += ": " + who
		}
	default:
		title = "the server fails to accept connections: " + strings.Join(serverErrs, ", ")
	}
	ev := []string{fmt.Sprintf("Aborted_connects %s/s, Connections %s/s", fmtRate(aborted), fmtRate(attempts))}
	if hasDenied {
		ev[0] += fmt.Sprintf(", Access_denied_errors %s/s", fmtRate(allDenied))
	}
	if stmtDenied > 0 {
		ev = append(ev, fmt.Sprintf("%s/s of the access denials are statements refused a privilege, not logins "+
			"(Access_denied_errors beyond Aborted_connects)", fmtRate(stmtDenied)))
	}
	if pre, ok := w.rate("Aborted_connects_preauth"); ok && pre > 0 {
		ev = append(ev, fmt.Sprintf("Aborted_connects_preauth %s/s: handshakes dropped before a user name was "+
			"sent (a port scan, a TLS mismatch, connect_timeout, a blocked host)", fmtRate(pre)))
	}
	ev = append(ev, blockedEvidence(w, c, blocked)...)
	ev = append(ev, serverErrs...)
	if len(atLimit) > 0 {
		ev = append(ev, limitEvidence(w, c, atLimit, refusedAfter)...)
	}
	handshakes := pre
	// Logins failing after authentication, with an account at its limit:
	// the limit is who is refused, not a password.
	byLimit := len(atLimit) > 0 && denied < failed/2 && handshakes < failed/2
	suspects := false
	if failed >= c.ConnRefusedPerSecWarn && !byLimit {
		ev = append(ev, refusedWho(w, c)...)
		if len(blocked) == 0 {
			m := mayBeBlocked(w, c)
			ev, suspects = append(ev, m...), len(m) > 0
		}
	}
	if r, ok := w.rate(refused); ok && r > 0 {
		ev = append(ev, fmt.Sprintf("%s %s/s: max_connections is full (see connections_near_max)", refused,
			fmtRate(r)))
	}
	refusedLogins := failed >= c.ConnRefusedPerSecWarn && len(blocked) == 0 && !byLimit
	return raise(sev, title, ev, connErrAdvice(w, refusedLogins && (!hasDenied || denied > 0 || handshakes < failed/2),
		len(serverErrs) > 0, atLimit, len(blocked) > 0, refusedLogins && (suspects || handshakes >= failed/2)), nil)
}

// refusals sums the error log's refusals over the lookback.
func refusals(w *window, c *Config) (list []snapshot.LoginRefusal, log string, read bool) {
	list, log, read, _ = refusalsOver(w, c)
	return list, log, read
}

// refusalsOver also returns the seconds the summed lines cover: each frame's
// read covers the interval before it.
func refusalsOver(w *window, c *Config) (list []snapshot.LoginRefusal, log string, read bool, secs float64) {
	list, log, read, secs, _ = refusalsRead(w, c)
	return list, log, read, secs
}

// refusalsRead also says whether a read was cut short (the log grew faster
// than one read takes), so the counts are a sample.
func refusalsRead(w *window, c *Config) (list []snapshot.LoginRefusal, log string, read bool, secs float64, cut bool) {
	idx := map[snapshot.LoginRefusal]int{}
	recent := w.recent(max(c.ConnRefusalLookback, 1))
	if len(recent) > 0 && w.rates != nil {
		secs = w.snap.Time.Sub(recent[0].Snapshot.Time).Seconds() + w.rates.Interval
	}
	for _, f := range recent {
		r := f.Snapshot.RefusedLogins
		if r == nil {
			continue
		}
		read, log, cut = true, r.Log, cut || r.Truncated
		for _, x := range r.Refusals {
			k := snapshot.LoginRefusal{User: x.User, Host: x.Host, Reason: x.Reason}
			if i, ok := idx[k]; ok {
				list[i].Count += x.Count
				continue
			}
			idx[k] = len(list)
			list = append(list, x)
		}
	}
	slices.SortStableFunc(list, func(a, b snapshot.LoginRefusal) int { return b.Count - a.Count })
	return list, log, read, secs, cut
}

func refusalName(x snapshot.LoginRefusal) string {
	if x.User == "" {
		return "host " + x.Host // the reason follows wherever it is named
	}
	return fmt.Sprintf("'%s'@'%s'", x.User, x.Host)
}

// topRefused names the most refused account for the title, or "".
func topRefused(w *window, c *Config) string {
	list, _, _ := refusals(w, c)
	if len(list) == 0 {
		return ""
	}
	return refusalName(list[0]) + " " + list[0].Reason
}

// refusedWho lists who was refused, or says why the monitor cannot tell.
func refusedWho(w *window, c *Config) []string {
	list, log, read, secs, cut := refusalsRead(w, c)
	if len(list) > 0 {
		var out []string
		if cut {
			out = append(out, "the error log grew faster than one read takes (256 KiB a second): the counts "+
				"below are of the lines read, a sample")
		}
		for i, x := range list {
			if i == maxThreadLines {
				out = append(out, fmt.Sprintf("… and %d more accounts", len(list)-i))
				break
			}
			out = append(out, fmt.Sprintf("refused: %s, %s, %s times in the last %.0f s (error log %s)",
				refusalName(x), x.Reason, fmtCount(int64(x.Count)), secs, log))
		}
		return out
	}
	why := ""
	if st, ok := w.snap.Collectors[snapshot.CollectorErrorLog]; ok && st.Unavailable != "" {
		why = ": " + st.Unavailable
	} else if read {
		why = ": the error log names none (MariaDB/MySQL 5.7 log them at log_warnings >= 2, MySQL 8 at log_error_verbosity=3)"
	}
	s := "who is refused: not known" + why
	if p, ok := w.variable("log_error"); ok && p != "" {
		s += fmt.Sprintf("; on the server: grep 'Access denied' %s", p)
	}
	return []string{s}
}

// connErrAdvice: refusedLogins when credentials are refused, handshakes when
// connections fail before login (a host then may be blocked).
func connErrAdvice(w *window, refusedLogins, serverErrs bool, atLimit []accountUse, blocked, handshakes bool) string {
	var s []string
	if blocked {
		s = append(s, blockedAdvice())
	}
	if handshakes {
		s = append(s, "Connections fail before they log in: find the client named above (or in the error log) "+
			"and what cuts its handshakes: "+handshakeCauses+".")
		if v, ok := w.variable("max_connect_errors"); ok {
			s = append(s, fmt.Sprintf("A host whose handshakes fail max_connect_errors=%s times in a row is "+
				"blocked (error 1129): FLUSH HOSTS (mariadb-admin flush-hosts) unblocks it, a larger "+
				"max_connect_errors keeps it from happening again.", v))
		}
	}
	if refusedLogins {
		s = append(s, "Find the client named above (or in the error log) and fix its credentials, account or "+
			"grants: a deploy with a wrong password, an expired or locked account, or a dropped user. "+
			"Each refused login costs the server a handshake and an authentication.")
		if v, ok := w.variable("max_connect_errors"); ok && !handshakes {
			if sk, _ := w.variable("skip_name_resolve"); sk != "ON" {
				s = append(s, fmt.Sprintf("A host whose handshakes fail max_connect_errors=%s times in a row is "+
					"blocked (error 1129) until FLUSH HOSTS.", v))
			}
		}
	}
	if serverErrs {
		s = append(s, "Connection_errors_accept/select/internal are the server failing to accept: check "+
			"open_files_limit and the process's file descriptors, memory, and the error log.")
	}
	if len(atLimit) > 0 {
		s = append(s, limitAdvice(atLimit))
	}
	return strings.Join(s, " ")
}

// splitDenials splits MariaDB's Access_denied_errors, which counts refused
// logins and statements refused a privilege alike. A refused login is a
// failed connection attempt after the handshake (Aborted_connects less
// Aborted_connects_preauth), so no more of the denials than that are logins;
// the rest are statements. Rates or counts alike.
func splitDenials(aborted, preauth, denied float64) (logins, statements float64) {
	logins = min(denied, max(aborted-preauth, 0))
	return logins, denied - logins
}
