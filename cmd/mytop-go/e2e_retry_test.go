package main

import (
	"database/sql"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/internal/tmuxtest"
)

// TestRefusedLoginWaitsForTheDBA rotates the monitor's password under a
// live dashboard and drops its connection: the header names the refusal
// (not a bare "no answer") and how to ask for a new attempt; none is made
// until the DBA asks (each wrong password counts towards the account's
// block), and once asked, with the password back, the dashboard recovers.
func TestRefusedLoginWaitsForTheDBA(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	srv := testdb.Start(t)
	args := append([]string{bin}, monitorUser(t, srv)...)
	args = append(args, "--interval", "500ms")
	s := tmuxtest.Start(t, 200, 45, []string{"HOME=" + t.TempDir()}, args...)
	s.WaitFor(20*time.Second, "MariaDB", "QPS ")

	waitSessionsOf(t, srv, "monitor")
	srv.Exec(t, "ALTER USER 'monitor'@'localhost' IDENTIFIED BY 'rotated-pw'")
	srv.KillSessionsOf(t, "monitor")
	s.WaitFor(15*time.Second, "!! no answer", "access denied for user 'monitor'@'localhost' (check the password)",
		"login refused (access_denied): Ctrl-R logs in again")
	if screen := s.Screen(); strings.Contains(screen, "mon-pw") || strings.Contains(screen, "rotated-pw") {
		t.Fatalf("a password is on the screen:\n%s", screen)
	}
	refused := deniedLogins(t, srv, "monitor")

	srv.Exec(t, "ALTER USER 'monitor'@'localhost' IDENTIFIED BY 'mon-pw'")
	time.Sleep(8 * time.Second) // the old retry came within 5 s
	if n := deniedLogins(t, srv, "monitor"); n != refused {
		t.Errorf("%d more refused logins without the DBA asking", n-refused)
	}
	if !strings.Contains(s.Screen(), "login refused") {
		t.Fatalf("the dashboard logged in again without being asked:\n%s", s.Screen())
	}
	s.Keys("C-r")
	// On a loaded machine a login can also time out half done (the server
	// greeted, then did not answer in the tick): such a session is counted
	// as the monitor's until seen gone or for its timeouts' patience.
	s.WaitGone(45*time.Second, "access denied", "!! no answer", "login refused")
	s.Keys("q")
	if status := s.WaitExit(10 * time.Second); status != "0" {
		t.Errorf("exit status %s, want 0:\n%s", status, s.Screen())
	}
}

// deniedLogins counts the refused logins of user in the server's error log.
func deniedLogins(t *testing.T, srv *testdb.Server, user string) int {
	t.Helper()
	b, err := os.ReadFile(srv.ErrorLog)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "Access denied for user '"+user+"'@")
}

// hasSession says whether user has a connection.
func hasSession(t *testing.T, db *sql.DB, user string) bool {
	t.Helper()
	ids, err := testdb.SessionsOf(db, user)
	if err != nil {
		t.Fatal(err)
	}
	return len(ids) > 0
}

// waitSessionsOf waits up to 10 s for user to have a connection: a monitor
// whose tick ran late on a loaded machine is between two sessions for a
// moment.
func waitSessionsOf(t *testing.T, srv *testdb.Server, user string) {
	t.Helper()
	db := srv.DB(t)
	for deadline := time.Now().Add(10 * time.Second); !hasSession(t, db, user); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("user %s has no connection", user)
		}
	}
}
