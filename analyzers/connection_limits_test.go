package analyzers

import (
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// hostCache is what performance_schema.host_cache holds for one host: its
// consecutive connect errors, and the refusals as blocked growing by
// blockedPerSec.
func hostCache(ip string, connectErrs int64, blockedPerSec int64) edit {
	return func(i int, s *snapshot.Snapshot) {
		s.HostErrors = []snapshot.HostErrors{{IP: ip, ConnectErrors: connectErrs, HandshakeErrors: connectErrs,
			BlockedErrors: blockedPerSec * int64(i), LastError: "2026-12-03 11:41:35"}}
	}
}

// accountLimit gives user@host a MAX_USER_CONNECTIONS of its own.
func accountLimit(user, host string, n int64) edit {
	return func(_ int, s *snapshot.Snapshot) {
		s.AccountLimits = append(s.AccountLimits, snapshot.AccountLimit{User: user, Host: host, MaxUserConnections: n})
	}
}

// failedAfterAuth grows Aborted_connects by n a second, none of them in the
// handshake nor access denials.
func failedAfterAuth(n float64) edit {
	return counters(map[string]float64{"Connections": 50 + n, "Aborted_connects": n,
		"Aborted_connects_preauth": 0, "Access_denied_errors": 0})
}

func TestConnectionLimits(t *testing.T) {
	twoLim := procs(sleeping(1, "lim"), sleeping(2, "lim"), sleeping(3, "web"))
	runTimelines(t, IDConnectionErrors, DefaultConfig(), []timelineCase{
		{"a host blocked by max_connect_errors, its clients retrying", series(6, logins(50, 2, 0),
			vars("max_connect_errors", "3"), hostCache("10.0.0.9", 3, 2)), "...CCC"},
		{"a blocked host nobody tries any more", series(6, logins(50, 0, 0), vars("max_connect_errors", "3"),
			hostCache("10.0.0.9", 3, 0)), "...WWW"},
		{"a host with errors under max_connect_errors", series(6, logins(50, 0, 0),
			vars("max_connect_errors", "100"), hostCache("10.0.0.9", 40, 0)), "......"},
		{"raising max_connect_errors unblocks", series(6, logins(50, 0, 0), hostCache("10.0.0.9", 3, 0),
			vars("max_connect_errors", "3"), during(3, 6, vars("max_connect_errors", "10000"))), "......"},
		{"an account at its own limit, its logins refused", series(6, failedAfterAuth(1), accountLimit("lim", "%", 2),
			twoLim), "...WWW"},
		{"a pool sized exactly at its limit asks for no more", series(6, failedAfterAuth(0),
			accountLimit("lim", "%", 2), twoLim), "......"},
		{"an account under its limit while another's logins fail", series(6, failedAfterAuth(1),
			accountLimit("lim", "%", 3), twoLim), "......"},
		{"a limit for another host of the user", series(6, failedAfterAuth(1), accountLimit("lim", "192.168.%", 2),
			twoLim), "......"},
		{"the global max_user_connections", series(6, failedAfterAuth(1), vars("max_user_connections", "3"),
			procs(sleeping(1, "app"), sleeping(2, "app"), sleeping(3, "app"), sleeping(4, "web"))), "...WWW"},
		{"an account's own limit overrides the global one", series(6, failedAfterAuth(1),
			vars("max_user_connections", "2"), accountLimit("lim", "%", 10), twoLim), "......"},
		{"failed handshakes are not a connection limit", series(6, counters(map[string]float64{"Connections": 51,
			"Aborted_connects": 1, "Aborted_connects_preauth": 1, "Access_denied_errors": 0}),
			accountLimit("lim", "%", 2), twoLim), "......"},
	})

	f := lastFinding(t, DefaultConfig(), series(6, logins(50, 2, 0), vars("max_connect_errors", "3"),
		hostCache("10.0.0.9", 3, 2)), IDConnectionErrors)
	mustContain(t, f, "host 10.0.0.9 is blocked by max_connect_errors=3 after 3 connection errors in a row: its "+
		"logins fail with error 1129 until FLUSH HOSTS",
		"blocked: host 10.0.0.9, 3 connection errors in a row (3 in the handshake, 0 in authentication, 0 at "+
			"max_user_connections), 10 connections refused as blocked in the last 5 s, last error 2026-12-03 11:41:35 "+
			"(performance_schema.host_cache)",
		"FLUSH HOSTS (mariadb-admin flush-hosts", "SET GLOBAL max_connect_errors = 10000", "load balancer")

	f = lastFinding(t, DefaultConfig(), series(6, failedAfterAuth(1), accountLimit("lim", "%", 2), twoLim,
		func(_ int, s *snapshot.Snapshot) { s.Processlist[0].TimeMS = 120_000 }), IDConnectionErrors)
	mustContain(t, f, "'lim'@'%' holds 2 connections, its MAX_USER_CONNECTIONS is 2: its new logins are refused (error 1226)",
		"at limit: 'lim'@'%', 2 connections of 2 (its own MAX_USER_CONNECTIONS, mysql.user), from 10.0.0.31 2; 1 of "+
			"them idle (Sleep) for a minute or more",
		"5 logins failed after authentication in the last 5 s",
		"ALTER USER 'lim'@'%' WITH MAX_USER_CONNECTIONS n")

	// Refused as fast as a wrong password would be: the limit is the reason
	// given, not credentials.
	f = lastFinding(t, DefaultConfig(), series(6, failedAfterAuth(4), accountLimit("lim", "%", 2), twoLim,
		vars("log_error", "/var/log/mysql/error.log")), IDConnectionErrors)
	mustContain(t, f, "'lim'@'%' holds 2 connections", "20 logins failed after authentication")
	if all := strings.Join(f.Evidence, "\n") + f.Advice; strings.Contains(all, "who is refused") ||
		strings.Contains(all, "credentials") {
		t.Errorf("a connection limit advised as a password problem:\n%s\n%s", strings.Join(f.Evidence, "\n"), f.Advice)
	}

	f = lastFinding(t, DefaultConfig(), series(6, failedAfterAuth(1), vars("max_user_connections", "3"),
		procs(sleeping(1, "app"), sleeping(2, "app"), sleeping(3, "app"))), IDConnectionErrors)
	mustContain(t, f, "user app holds 3 connections, max_user_connections=3: its new logins are refused (error 1203)",
		"the global max_user_connections; the account has none of its own", "SET GLOBAL max_user_connections = n")

	f = lastFinding(t, DefaultConfig(), series(6, failedAfterAuth(1), vars("max_user_connections", "3"),
		procs(sleeping(1, "app"), sleeping(2, "app"), sleeping(3, "app")), func(_ int, s *snapshot.Snapshot) {
			s.Collectors = map[snapshot.CollectorName]snapshot.CollectorState{snapshot.CollectorAccountLimits: {
				Unavailable: "cannot read the accounts' MAX_USER_CONNECTIONS (needs SELECT on mysql.user)"}}
		}), IDConnectionErrors)
	mustContain(t, f, "whether the account has a limit of its own is not known: account_limits collector "+
		"unavailable: cannot read the accounts' MAX_USER_CONNECTIONS (needs SELECT on mysql.user)")

	// No host cache (performance_schema off): the error log's failed
	// handshakes make a host a suspect, never named as blocked.
	f = lastFinding(t, DefaultConfig(), series(6, counters(map[string]float64{"Connections": 5, "Aborted_connects": 5,
		"Aborted_connects_preauth": 5, "Access_denied_errors": 0}),
		vars("max_connect_errors", "3", "skip_name_resolve", "OFF", "log_error", "/var/log/mysql/error.log"),
		func(_ int, s *snapshot.Snapshot) {
			s.RefusedLogins = &snapshot.RefusedLogins{Log: "/var/log/mysql/error.log", Refusals: []snapshot.LoginRefusal{
				{Host: "10.0.0.9", Reason: snapshot.RefusedBeforeLogin, Count: 1}}}
			s.Collectors = map[snapshot.CollectorName]snapshot.CollectorState{snapshot.CollectorHostCache: {
				Unavailable: "performance_schema is off"}}
		}), IDConnectionErrors)
	mustContain(t, f, "host 10.0.0.9 probably blocked: 6 handshakes failed in the last",
		"25 connections failed before login in the last 5 s (Aborted_connects_preauth",
		"a host may be blocked by max_connect_errors=3 (error 1129); the host cache would name it: host_cache "+
			"collector unavailable: performance_schema is off")
	if f.Title == "" || strings.Contains(f.Title, "is blocked") {
		t.Errorf("a suspect is named as blocked: %s", f.Title)
	}
}

func TestHostMatches(t *testing.T) {
	for _, c := range []struct {
		pattern, host string
		want          bool
	}{
		{"%", "10.0.0.31", true}, {"10.0.%", "10.0.0.31", true}, {"10.0.%", "10.1.0.31", false},
		{"localhost", "LOCALHOST", true}, {"app_.example", "app1.example", true}, {"app_.example", "app12.example", false},
		{"10.0.0.0/255.255.255.0", "10.0.0.7", true},
	} {
		if got := hostMatches(c.pattern, c.host); got != c.want {
			t.Errorf("hostMatches(%q, %q) = %v", c.pattern, c.host, got)
		}
	}
	if clientHost("10.0.0.31:40000") != "10.0.0.31" || clientHost("localhost") != "localhost" ||
		clientHost("[::1]:40000") != "::1" || clientHost("fe80::1") != "fe80::1" {
		t.Error("clientHost keeps the port or loses the host")
	}
}
