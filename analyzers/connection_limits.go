package analyzers

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Two refusals of connection_errors that the counters alone do not name:
//   - a client host blocked by max_connect_errors (error 1129 "Host ... is
//     blocked because of many connection errors; unblock with FLUSH HOSTS"):
//     every connection from it fails until FLUSH HOSTS, whatever its
//     credentials. Named from performance_schema.host_cache
//     (Snapshot.HostErrors): blocked once SUM_CONNECT_ERRORS reaches
//     max_connect_errors; COUNT_HOST_BLOCKED_ERRORS counts the refusals.
//     Without the host cache (performance_schema off, MariaDB's default)
//     the server says only Aborted_connects_preauth and, in the error log,
//     which host's handshakes failed: the host is then said to be probably
//     blocked, never named as blocked.
//   - an account at its connection limit: its own MAX_USER_CONNECTIONS
//     (mysql.user, Snapshot.AccountLimits; error 1226 "User ... has exceeded
//     the 'max_user_connections' resource") or, for accounts without one, the
//     global max_user_connections (error 1203). Counted from the processlist
//     per account; judged an incident only while logins fail after
//     authentication (Aborted_connects beyond the handshakes and access
//     denials): a pool sized exactly at its limit that asks for no more is
//     not one.

// hostBlocked is a host max_connect_errors blocked.
type hostBlocked struct {
	snapshot.HostErrors
	// refused is COUNT_HOST_BLOCKED_ERRORS' rise over the lookback: its
	// clients are being turned away now.
	refused int64
}

// blockedHosts lists the hosts blocked by max_connect_errors, from the host
// cache: SUM_CONNECT_ERRORS at or above max_connect_errors (when the
// variable is unknown, refusals as blocked over the lookback).
func blockedHosts(w *window, c *Config) []hostBlocked {
	if len(w.snap.HostErrors) == 0 {
		return nil
	}
	limit, known := w.snap.VarFloat("max_connect_errors")
	before := map[string]int64{}
	if r := w.recent(max(c.ConnRefusalLookback, 1) + 1); len(r) > 1 {
		for _, h := range r[0].Snapshot.HostErrors {
			before[h.IP] = h.BlockedErrors
		}
	}
	var out []hostBlocked
	for _, h := range w.snap.HostErrors {
		rose := h.BlockedErrors - before[h.IP]
		if rose < 0 { // FLUSH HOSTS in between
			rose = h.BlockedErrors
		}
		if (known && limit > 0 && float64(h.ConnectErrors) >= limit) || (!known && rose > 0) {
			out = append(out, hostBlocked{h, rose})
		}
	}
	return out
}

// hostName is the host as the server knows it: its IP, and its name when
// resolved.
func hostName(h snapshot.HostErrors) string {
	if h.Host != "" && h.Host != h.IP {
		return h.Host + " (" + h.IP + ")"
	}
	return h.IP
}

func blockedTitle(w *window, hosts []hostBlocked) string {
	mce, _ := w.variable("max_connect_errors")
	if len(hosts) == 1 {
		return fmt.Sprintf("host %s is blocked by max_connect_errors=%s after %s connection errors in a row: "+
			"its logins fail with error 1129 until FLUSH HOSTS", hostName(hosts[0].HostErrors), mce,
			fmtCount(hosts[0].ConnectErrors))
	}
	var names []string
	for i, h := range hosts {
		if i == 3 {
			names = append(names, "…")
			break
		}
		names = append(names, hostName(h.HostErrors))
	}
	return fmt.Sprintf("%d hosts are blocked by max_connect_errors=%s (%s): their logins fail with error 1129 "+
		"until FLUSH HOSTS", len(hosts), mce, strings.Join(names, ", "))
}

func blockedEvidence(w *window, c *Config, hosts []hostBlocked) []string {
	secs := lookbackSeconds(w, c)
	var out []string
	for i, h := range hosts {
		if i == maxThreadLines {
			out = append(out, fmt.Sprintf("… and %d more blocked hosts", len(hosts)-i))
			break
		}
		s := fmt.Sprintf("blocked: host %s, %s connection errors in a row (%s in the handshake, %s in "+
			"authentication, %s at max_user_connections)", hostName(h.HostErrors), fmtCount(h.ConnectErrors),
			fmtCount(h.HandshakeErrors), fmtCount(h.AuthErrors), fmtCount(h.UserLimitErrors))
		if h.refused > 0 {
			s += fmt.Sprintf(", %s connections refused as blocked in the last %.0f s", fmtCount(h.refused), secs)
		}
		if h.LastError != "" {
			s += ", last error " + h.LastError
		}
		out = append(out, s+" (performance_schema.host_cache)")
	}
	return out
}

// lookbackSeconds is the time the lookback's frames cover.
func lookbackSeconds(w *window, c *Config) float64 {
	r := w.recent(max(c.ConnRefusalLookback, 1) + 1)
	if len(r) < 2 {
		return 0
	}
	return w.snap.Time.Sub(r[0].Snapshot.Time).Seconds()
}

// connRefusalKeptStatus are the counters counterRise reads from older frames,
// kept when the pipeline slims them (the lookback may pass the detail frames).
var connRefusalKeptStatus = []string{"Aborted_connects", "Aborted_connects_preauth", "Access_denied_errors"}

// counterRise is a status counter's rise over the lookback, from its value
// at the latest restart or FLUSH STATUS when one fell inside it (counterStart).
func counterRise(w *window, c *Config, name string) (float64, bool) {
	now, ok := w.snap.StatusFloat(name)
	r := w.recent(max(c.ConnRefusalLookback, 1) + 1)
	if !ok || len(r) < 2 {
		return 0, false
	}
	oldest := r[0].Snapshot.Time
	start := w.counterStart(name, func(f *snapshot.Frame) bool { return !f.Snapshot.Time.Before(oldest) })
	if start == nil {
		return 0, true // restarted or flushed this very frame: nothing to compare yet
	}
	then, _ := start.Snapshot.StatusFloat(name)
	return max(now-then, 0), true
}

// mayBeBlocked says, when the host cache cannot be read, that a host may be
// blocked: handshakes fail (Aborted_connects_preauth, which also counts the
// refusals of a blocked host), and the error log names whose. "" when
// nothing points that way.
func mayBeBlocked(w *window, c *Config) []string {
	why := w.unavailable(snapshot.CollectorHostCache)
	mce, ok := w.variable("max_connect_errors")
	if why == "" || !ok {
		return nil
	}
	if sk, _ := w.variable("skip_name_resolve"); sk == "ON" && w.snap.Server.Flavor == snapshot.FlavorMariaDB {
		return nil // MariaDB consults the host cache only when it resolves names
	}
	pre, ok := counterRise(w, c, "Aborted_connects_preauth")
	if !ok || pre == 0 {
		return nil
	}
	secs := lookbackSeconds(w, c)
	limit, _ := w.snap.VarFloat("max_connect_errors")
	var out []string
	list, log, _ := refusals(w, c)
	for _, x := range list {
		if x.Reason == snapshot.RefusedBeforeLogin && limit > 0 && float64(x.Count) >= limit && len(out) < maxThreadLines {
			out = append(out, fmt.Sprintf("host %s probably blocked: %d handshakes failed in the last %.0f s (error "+
				"log %s), max_connect_errors=%s, unless logins from it succeeded in between", x.Host, x.Count, secs,
				log, mce))
		}
	}
	out = append(out, fmt.Sprintf("%s connections failed before login in the last %.0f s "+
		"(Aborted_connects_preauth, which also counts a blocked host's refusals): a host may be blocked by "+
		"max_connect_errors=%s (error 1129); the host cache would name it: %s", fmtCount(int64(pre)), secs, mce, why))
	return out
}

// accountUse is the connections one account holds against its limit.
type accountUse struct {
	user, host string // host "" for the global max_user_connections
	limit      int64
	held       int
	idle       int // sleeping for a minute or more
	from       map[string]int
}

func (a accountUse) name() string {
	if a.host == "" {
		return "user " + a.user
	}
	return fmt.Sprintf("'%s'@'%s'", a.user, a.host)
}

// idleLong is how long a sleeping connection is counted as idle in the
// evidence (a pool's connection waiting for work is reused within seconds).
const idleLongMS = 60_000

// accountsAtLimit lists the accounts holding at least their limit of
// connections, most over first.
func accountsAtLimit(w *window) []accountUse {
	global, _ := w.snap.VarFloat("max_user_connections")
	var limits []snapshot.AccountLimit
	for _, a := range w.snap.AccountLimits {
		if a.MaxUserConnections > 0 {
			limits = append(limits, a)
		}
	}
	if global <= 0 && len(limits) == 0 {
		return nil
	}
	use := map[string]*accountUse{}
	for _, p := range w.snap.Processlist {
		switch p.User {
		case "", "system user", "event_scheduler", "unauthenticated user":
			continue
		}
		host := clientHost(p.Host)
		key, a := "", (*snapshot.AccountLimit)(nil)
		for i := range limits {
			l := &limits[i]
			if l.User == p.User && hostMatches(l.Host, host) && (a == nil || moreSpecific(l.Host, a.Host)) {
				a = l
			}
		}
		switch {
		case a != nil:
			key = a.User + "@" + a.Host
			if use[key] == nil {
				use[key] = &accountUse{user: a.User, host: a.Host, limit: a.MaxUserConnections, from: map[string]int{}}
			}
		case global > 0:
			key = p.User
			if use[key] == nil {
				use[key] = &accountUse{user: p.User, limit: int64(global), from: map[string]int{}}
			}
		default:
			continue
		}
		u := use[key]
		u.held++
		u.from[host]++
		if p.Command == "Sleep" && p.TimeMS >= idleLongMS {
			u.idle++
		}
	}
	var out []accountUse
	for _, u := range use {
		if int64(u.held) >= u.limit {
			out = append(out, *u)
		}
	}
	slices.SortFunc(out, func(a, b accountUse) int {
		if a.held != b.held {
			return b.held - a.held
		}
		return strings.Compare(a.name(), b.name())
	})
	return out
}

// clientHost is a processlist Host without its port.
func clientHost(h string) string {
	if strings.HasPrefix(h, "[") { // [IPv6]:port
		if i := strings.IndexByte(h, ']'); i > 0 {
			return h[1:i]
		}
	}
	if i := strings.LastIndexByte(h, ':'); i > 0 && strings.Count(h, ":") == 1 {
		return h[:i]
	}
	return h
}

// hostMatches is the server's match of an account's host pattern (% and _
// wildcards, case-insensitive) against a client host; an IP/netmask pattern
// is taken to match.
func hostMatches(pattern, host string) bool {
	if strings.Contains(pattern, "/") {
		return true
	}
	return likeMatch(strings.ToLower(pattern), strings.ToLower(host))
}

func likeMatch(p, s string) bool {
	for len(p) > 0 {
		switch p[0] {
		case '%':
			for i := 0; i <= len(s); i++ {
				if likeMatch(p[1:], s[i:]) {
					return true
				}
			}
			return false
		case '_':
			if len(s) == 0 {
				return false
			}
		default:
			if len(s) == 0 || s[0] != p[0] {
				return false
			}
		}
		p, s = p[1:], s[1:]
	}
	return len(s) == 0
}

// moreSpecific: the server tries accounts with fewer wildcards in the host
// first.
func moreSpecific(a, b string) bool {
	wa, wb := strings.Count(a, "%")+strings.Count(a, "_"), strings.Count(b, "%")+strings.Count(b, "_")
	if wa != wb {
		return wa < wb
	}
	return len(a) > len(b)
}

// refusedAfterAuth is how many logins failed after the handshake and the
// password over the lookback: Aborted_connects less Aborted_connects_preauth
// and Access_denied_errors (a connection limit, a missing default database,
// init_connect), or the host cache's max_user_connections errors.
func refusedAfterAuth(w *window, c *Config) float64 {
	aborted, ok := counterRise(w, c, "Aborted_connects")
	if !ok {
		return 0
	}
	pre, _ := counterRise(w, c, "Aborted_connects_preauth")
	allDenied, _ := counterRise(w, c, "Access_denied_errors")
	denied, _ := splitDenials(aborted, pre, allDenied)
	n := max(aborted-pre-denied, 0)
	var limitErrs int64
	before := map[string]int64{}
	if r := w.recent(max(c.ConnRefusalLookback, 1) + 1); len(r) > 1 {
		for _, h := range r[0].Snapshot.HostErrors {
			before[h.IP] = h.UserLimitErrors
		}
	}
	for _, h := range w.snap.HostErrors {
		limitErrs += max(h.UserLimitErrors-before[h.IP], 0)
	}
	return max(n, float64(limitErrs))
}

func limitTitle(a accountUse) string {
	if a.host == "" {
		return fmt.Sprintf("%s holds %d connections, max_user_connections=%d: its new logins are refused "+
			"(error 1203)", a.name(), a.held, a.limit)
	}
	return fmt.Sprintf("%s holds %d connections, its MAX_USER_CONNECTIONS is %d: its new logins are refused "+
		"(error 1226)", a.name(), a.held, a.limit)
}

func limitEvidence(w *window, c *Config, at []accountUse, refused float64) []string {
	var out []string
	for i, a := range at {
		if i == maxThreadLines {
			out = append(out, fmt.Sprintf("… and %d more accounts at their limit", len(at)-i))
			break
		}
		s := fmt.Sprintf("at limit: %s, %d connections of %d", a.name(), a.held, a.limit)
		switch why := w.unavailable(snapshot.CollectorAccountLimits); {
		case a.host == "" && why != "":
			s += " (the global max_user_connections; whether the account has a limit of its own is not known: " +
				why + ")"
		case a.host == "":
			s += " (the global max_user_connections; the account has none of its own)"
		default:
			s += " (its own MAX_USER_CONNECTIONS, mysql.user)"
		}
		var from []string
		for h, n := range a.from {
			from = append(from, fmt.Sprintf("%s %d", h, n))
		}
		slices.Sort(from)
		s += ", from " + strings.Join(from, ", ")
		if a.idle > 0 {
			s += fmt.Sprintf("; %d of them idle (Sleep) for a minute or more", a.idle)
		}
		out = append(out, s)
	}
	out = append(out, fmt.Sprintf("%s logins failed after authentication in the last %.0f s (Aborted_connects "+
		"less Aborted_connects_preauth and Access_denied_errors)", fmtCount(int64(refused)), lookbackSeconds(w, c)))
	return out
}

func limitAdvice(at []accountUse) string {
	a := at[0]
	raise := fmt.Sprintf("ALTER USER %s WITH MAX_USER_CONNECTIONS n", a.name())
	if a.host == "" {
		raise = "SET GLOBAL max_user_connections = n (and in my.cnf), or give the account its own: ALTER USER '" +
			a.user + "'@'host' WITH MAX_USER_CONNECTIONS n"
	}
	leaks := "connections the application leaks"
	if a.idle > 0 {
		leaks += ": the idle ones above"
	}
	return fmt.Sprintf("%s is at its connection limit: find why its connections stay open (a pool larger than "+
		"the limit, or %s), shrink the pool or close the leaked ones (KILL), or raise the limit: %s.", a.name(),
		leaks, raise)
}

// handshakeCauses are what makes connections fail before they log in.
const handshakeCauses = "a load balancer or port check that opens the port and closes it, a client with " +
	"wrong TLS or protocol settings, a network dropping connections, a connect_timeout too short for the link"

func blockedAdvice() string {
	return "Unblock now: FLUSH HOSTS (mariadb-admin flush-hosts; MySQL 8.0.23+: TRUNCATE TABLE " +
		"performance_schema.host_cache). Then stop what fails its connections before they log in: " +
		handshakeCauses + ". And raise " +
		"max_connect_errors (SET GLOBAL max_connect_errors = 10000, and in my.cnf) so a few such failures cannot " +
		"lock the host out again; a successful login from the host resets its count."
}
