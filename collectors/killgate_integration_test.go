package collectors

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// clientSession is one client connection of a test, as a pooled connection is:
// one server thread running one statement after another.
func clientSession(t *testing.T, db *sql.DB) *sql.Conn {
	t.Helper()
	c, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// start runs q on c in the background; its error arrives on the channel.
func start(c *sql.Conn, q string) <-chan error {
	done := make(chan error, 1)
	go func() { _, err := c.ExecContext(context.Background(), q); done <- err }()
	return done
}

// awaitRunning waits until thread id runs q, as root sees it.
func awaitRunning(t *testing.T, db *sql.DB, id int64, q string) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		var info sql.NullString
		err := db.QueryRow("SELECT INFO FROM information_schema.PROCESSLIST WHERE ID = ?", id).Scan(&info)
		if err == nil && info.String == q {
			return
		}
	}
	t.Fatalf("thread %d never ran %q", id, q)
}

// awaitIdle waits until thread id is idle as root sees it: the client has its
// result a moment before the server clears the row's statement, and in that
// moment the row looks like a fresh run of the same text.
func awaitIdle(t *testing.T, db *sql.DB, id int64) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		var command string
		err := db.QueryRow("SELECT COMMAND FROM information_schema.PROCESSLIST WHERE ID = ?", id).Scan(&command)
		if err == nil && command == "Sleep" {
			return
		}
	}
	t.Fatalf("thread %d never went idle", id)
}

// mustRefuse is the gate's refusal of target, saying want.
func mustRefuse(t *testing.T, l *Live, target snapshot.KillTarget, connection bool, want string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := l.Kill(ctx, target, connection)
	var refused *snapshot.KillRefused
	if !errors.As(err, &refused) {
		t.Fatalf("kill of thread %d: err %v, want the gate's refusal", target.ID, err)
	}
	if !strings.Contains(refused.Reason, want) || !strings.Contains(refused.Reason, "Nothing killed") {
		t.Errorf("refusal %q, want it to say %q and that nothing was killed", refused.Reason, want)
	}
}

// stillRuns fails when the statement on done ended within a second.
func stillRuns(t *testing.T, done <-chan error, what string) {
	t.Helper()
	select {
	case err := <-done:
		t.Errorf("%s ended (err %v): it was killed", what, err)
	case <-time.After(time.Second):
	}
}

// endStatement ends a test's statement still running on thread id, so that
// closing its connection does not wait for it.
func endStatement(t *testing.T, admin *sql.DB, id int64, done <-chan error) {
	t.Helper()
	if _, err := admin.Exec(fmt.Sprintf("KILL QUERY %d", id)); err != nil {
		t.Logf("ending thread %d's statement: %v", id, err)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Errorf("thread %d's statement did not end", id)
	}
}

func connectionID(t *testing.T, c *sql.Conn) int64 {
	t.Helper()
	var id int64
	if err := c.QueryRowContext(context.Background(), "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// A pooled connection passes to another client while the kill dialog is
// open: the thread the DBA confirmed now runs someone else's statement, and
// neither KILL QUERY nor KILL CONNECTION is sent.
func TestKillGateRefusesAnotherStatementOnThePooledConnection(t *testing.T) {
	t.Parallel()
	srv := sharedServer(t)
	l := newLive(t, rootOptions(srv), testInterval, nil)
	admin := srv.DB(t)
	c := clientSession(t, openDB(t, srv.DSN("")))
	id := connectionID(t, c)
	const mine, theirs = "SELECT SLEEP(2) /* request of client A */", "SELECT SLEEP(30) /* request of client B */"
	first := start(c, mine)
	target := runningTarget(t, l, mine) // the dialog opens on it
	<-first
	next := start(c, theirs)
	awaitRunning(t, admin, id, theirs)
	for _, connection := range []bool{false, true} {
		mustRefuse(t, l, target, connection, "now runs `"+theirs+"` (was `"+mine+"`)")
	}
	stillRuns(t, next, "client B's statement")
	endStatement(t, admin, id, next)
}

// The issue's `select sleep(10)`, then y 11 s later, scaled down: once the
// confirmed statement ended, KILL QUERY reaches neither the idle session
// nor the next run of the same text.
func TestKillGateRefusesAfterTheConfirmedStatementEnded(t *testing.T) {
	t.Parallel()
	srv := sharedServer(t)
	l := newLive(t, rootOptions(srv), testInterval, nil)
	admin := srv.DB(t)
	c := clientSession(t, openDB(t, srv.DSN("")))
	id := connectionID(t, c)
	const q = "SELECT SLEEP(2) /* the confirmed one */"
	first := start(c, q)
	target := runningTarget(t, l, q)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	awaitIdle(t, admin, id)
	mustRefuse(t, l, target, false, "ended (it is now idle")

	time.Sleep(time.Second) // the client thinks, then sends the same text again
	again := start(c, q)
	awaitRunning(t, admin, id, q)
	mustRefuse(t, l, target, false, "it is another run")
	select {
	case err := <-again:
		if err != nil {
			t.Errorf("the next run was disturbed: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("the next run never ended")
	}
}

// After a restart the confirmed id belongs to a new session, even one of
// the same user running the same text: nothing is killed, also when the
// action connection, opened before the restart, is replaced on the way.
func TestKillGateRefusesTheSameIDAfterARestart(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t)
	l := newLive(t, rootOptions(srv), testInterval, nil)
	const q = "SELECT SLEEP(30) /* before and after the restart */"
	start(clientSession(t, openDB(t, srv.DSN(""))), q)
	target := runningTarget(t, l, q)
	ctx := context.Background()
	if err := l.actions.do(ctx, func(*sql.Conn) error { return nil }); err != nil {
		t.Fatal(err)
	}
	// Uptime is whole seconds: a server up for less than the slack would
	// look unrestarted.
	time.Sleep(time.Until(target.ServerStart.Add(killRestartSlack + 2*time.Second)))
	srv.Restart(t)

	db := openDB(t, srv.DSN(""))
	var victim *sql.Conn
	for i := 0; i < 500 && victim == nil; i++ {
		c := clientSession(t, db)
		if id := connectionID(t, c); id == target.ID {
			victim = c
		} else if id > target.ID {
			t.Fatalf("the new server gave id %d before %d", id, target.ID)
		}
	}
	if victim == nil {
		t.Fatalf("no session got id %d after the restart", target.ID)
	}
	done := start(victim, q)
	awaitRunning(t, srv.DB(t), target.ID, q)
	mustRefuse(t, l, target, true, "server restarted")
	stillRuns(t, done, "the new session's statement")
	endStatement(t, srv.DB(t), target.ID, done)
}
