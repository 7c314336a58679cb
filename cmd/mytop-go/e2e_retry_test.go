package main

import (
	"database/sql"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/internal/tmuxtest"
)

// TestHeaderSaysWhyWhileRetrying rotates the monitor's password under a live
// dashboard and drops its connection: the header names the refusal (not a
// bare "no answer") while it retries, and once the password is back the
// dashboard recovers by itself.
func TestHeaderSaysWhyWhileRetrying(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	srv := testdb.Start(t)
	args := append([]string{bin}, monitorUser(t, srv)...)
	args = append(args, "--interval", "500ms")
	s := tmuxtest.Start(t, 160, 45, []string{"HOME=" + t.TempDir()}, args...)
	s.WaitFor(20*time.Second, "MariaDB", "QPS ")

	waitSessionsOf(t, srv, "monitor")
	srv.Exec(t, "ALTER USER 'monitor'@'localhost' IDENTIFIED BY 'rotated-pw'")
	killSessionsOf(t, srv, "monitor")
	s.WaitFor(15*time.Second, "!! no answer", "access denied for user 'monitor'@'localhost' (check the password)")
	if screen := s.Screen(); strings.Contains(screen, "mon-pw") || strings.Contains(screen, "rotated-pw") {
		t.Fatalf("a password is on the screen:\n%s", screen)
	}

	srv.Exec(t, "ALTER USER 'monitor'@'localhost' IDENTIFIED BY 'mon-pw'")
	// The retry backs off to at most a few seconds. On a loaded machine a
	// login can also time out half done (the server greeted, then did not
	// answer in the tick): such a session is counted as the monitor's until
	// seen gone or for its timeouts' patience (20 s at a 500-ms interval),
	// and three of them hold off a new login that long (CI saw "already
	// holds 3 sessions" 21 s after the password came back).
	s.WaitGone(45*time.Second, "access denied", "!! no answer")
	s.Keys("q")
	if status := s.WaitExit(10 * time.Second); status != "0" {
		t.Errorf("exit status %s, want 0:\n%s", status, s.Screen())
	}
}

// sessionsOf returns the ids of user's connections.
func sessionsOf(t *testing.T, db *sql.DB, user string) []int64 {
	t.Helper()
	rows, err := db.Query("SELECT id FROM information_schema.processlist WHERE user = ?", user)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// waitSessionsOf waits up to 10 s for user to have a connection: a monitor
// whose tick ran late on a loaded machine is between two sessions for a
// moment.
func waitSessionsOf(t *testing.T, srv *testdb.Server, user string) {
	t.Helper()
	db := srv.DB(t)
	for deadline := time.Now().Add(10 * time.Second); len(sessionsOf(t, db, user)) == 0; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("user %s has no connection", user)
		}
	}
}

// killSessionsOf ends every connection of user, as a DBA's KILL would.
func killSessionsOf(t *testing.T, srv *testdb.Server, user string) {
	t.Helper()
	db := srv.DB(t)
	ids := sessionsOf(t, db, user)
	if len(ids) == 0 {
		t.Logf("user %s had already lost its connection", user)
	}
	for _, id := range ids {
		// KILL takes no placeholder; id is an integer read from the server.
		if _, err := db.Exec("KILL " + strconv.FormatInt(id, 10)); err != nil {
			t.Logf("KILL %d: %v", id, err) // it may have gone already
		}
	}
}
