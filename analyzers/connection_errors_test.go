package analyzers

import (
	"fmt"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// logins grows the connection counters: attempts, failed handshakes and
// logins, and access denials per second.
func logins(attempts, aborted, denied float64) edit {
	return counters(map[string]float64{"Connections": attempts, "Aborted_connects": aborted,
		"Access_denied_errors": denied})
}

// refusedInLog is what the error log collector read this tick.
func refusedInLog(user, host string, n int) edit {
	return func(_ int, s *snapshot.Snapshot) {
		s.RefusedLogins = &snapshot.RefusedLogins{Log: "/var/log/mysql/error.log", Refusals: []snapshot.LoginRefusal{
			{User: user, Host: host, Reason: snapshot.RefusedAccessDenied, Count: n}}}
	}
}

func TestConnectionErrors(t *testing.T) {
	runTimelines(t, IDConnectionErrors, DefaultConfig(), []timelineCase{
		{"an application with a wrong password", series(6, logins(340, 334, 334)), "...CCC"},
		{"a few refusals among many logins warn", series(6, logins(400, 10, 10)), "...WWW"},
		// MariaDB counts a SELECT refused on a table in Access_denied_errors too.
		{"an application refused a table 400 times a second logs in fine", series(6, logins(50, 0, 400)), "......"},
		{"refused logins among refused statements", series(6, logins(340, 334, 800)), "...CCC"},
		{"a normal login rate with an occasional typo", series(6, logins(50, 0, 0), during(3, 4, logins(50, 1, 1))),
			"......"},
		{"a burst of typos is not a program", series(6, logins(50, 0, 0), during(2, 3, logins(50, 5, 5))), "......"},
		{"the server fails to accept", series(6, logins(50, 0, 0), counter("Connection_errors_accept", 0, 2)),
			"...WWW"},
		{"max_connections is connections_near_max's", series(6, logins(50, 0, 0),
			counter("Connection_errors_max_connections", 0, 20)), "......"},
		{"a user at max_user_connections, its logins refused", series(6, failedAfterAuth(1), vars("max_user_connections", "3"),
			procs(sleeping(1, "app"), sleeping(2, "app"), sleeping(3, "app"), sleeping(4, "web"))), "...WWW"},
		{"no connection counters in this source", series(2, func(_ int, s *snapshot.Snapshot) {
			s.Status = map[string]string{"Uptime": "1000"}
		}), "NN"},
	})
	f := lastFinding(t, DefaultConfig(), series(6, logins(340, 334, 334), refusedInLog("app", "10.0.0.7", 330),
		vars("log_error", "/var/log/mysql/error.log", "max_connect_errors", "100")), IDConnectionErrors)
	mustContain(t, f, "334 refused logins/s (98 % of 340 connection attempts/s): 'app'@'10.0.0.7' access denied",
		"Aborted_connects 334/s, Connections 340/s, Access_denied_errors 334/s",
		"refused: 'app'@'10.0.0.7', access denied, 1,980 times in the last 6 s (error log /var/log/mysql/error.log)",
		"fix its credentials", "max_connect_errors=100")
	f = lastFinding(t, DefaultConfig(), series(6, logins(340, 334, 800)), IDConnectionErrors)
	mustContain(t, f, "334 refused logins/s", "Access_denied_errors 800/s",
		"466/s of the access denials are statements refused a privilege, not logins")
	f = lastFinding(t, DefaultConfig(), series(6, logins(6000, 6000, 6000), refusedInLog("app", "10.0.0.7", 2500),
		func(_ int, s *snapshot.Snapshot) { s.RefusedLogins.Truncated = true }), IDConnectionErrors)
	mustContain(t, f, "the error log grew faster than one read takes", "a sample")
	f = lastFinding(t, DefaultConfig(), series(6, logins(340, 334, 334), vars("log_error", "/var/log/mysql/error.log"),
		func(_ int, s *snapshot.Snapshot) {
			s.Collectors = map[snapshot.CollectorName]snapshot.CollectorState{snapshot.CollectorErrorLog: {
				Unavailable: "server is on another machine: its error log is not readable here"}}
		}), IDConnectionErrors)
	mustContain(t, f, "who is refused: not known: server is on another machine",
		"grep 'Access denied' /var/log/mysql/error.log")
}

func TestParseRefusedLogins(t *testing.T) {
	text := "2026-12-03  8:24:09 25 [Warning] Access denied for user 'app'@'10.0.0.7' (using password: YES)\n" +
		"2026-12-03  8:24:09 26 [Warning] Access denied for user 'nobody'@'localhost' (using password: YES)\n" +
		"2026-12-03T08:24:09.123456Z 27 [Note] [MY-010926] [Server] Access denied for user 'app'@'10.0.0.7' (using password: YES)\n" +
		"2026-12-03  8:24:10 28 [Warning] Aborted connection 28 to db: 'unconnected' user: 'unauthenticated' host: '10.0.0.9' (This connection closed normally without authentication)\n" +
		"2026-12-03  8:24:10 0 [Note] InnoDB: Buffer pool(s) load completed\n"
	got := fmt.Sprint(parse.ParseRefusedLogins(text))
	want := "[{app 10.0.0.7 access denied 2} {nobody localhost access denied 1} { 10.0.0.9 aborted before login 1}]"
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}
