package collectors

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/connopt"
)

// TestKillThroughManagedProcedure: a monitoring user without SUPER or
// CONNECTION ADMIN, on a server that has RDS's mysql.rds_kill and
// mysql.rds_kill_query (made here as RDS ships them: definer rights, EXECUTE
// granted to the user), ends another user's session through them; a user
// not granted them gets the server's refusal of KILL.
func TestKillThroughManagedProcedure(t *testing.T) {
	// Serial: on the shared server, whose processlist and sessions other tests' monitors would share.
	srv := sharedServer(t)
	srv.AddRDSKillUser(t, "rds_mon", "pw")
	srv.Exec(t,
		"CREATE USER 'plain_mon'@'localhost' IDENTIFIED BY 'pw'",
		"GRANT PROCESS ON *.* TO 'plain_mon'@'localhost'",
	)
	t.Cleanup(func() {
		srv.Exec(t, "DROP PROCEDURE mysql.rds_kill", "DROP PROCEDURE mysql.rds_kill_query",
			"DROP USER 'rds_mon'@'localhost'", "DROP USER 'plain_mon'@'localhost'")
	})
	const q = "SELECT SLEEP(20) /* managed kill */"
	done := make(chan error, 1)
	go func() { _, err := openDB(t, srv.DSN("")).Exec(q); done <- err }()

	as := func(user string) *Live {
		return newLive(t, connopt.Options{Socket: srv.Socket, User: user, Password: "pw", PasswordSet: true}, testInterval, nil)
	}
	plain, rds := as("plain_mon"), as("rds_mon")
	target := runningTarget(t, rds, q)
	next(t, plain)
	ctx := context.Background()
	if err := plain.Kill(ctx, target, true); err == nil || !strings.Contains(err.Error(), "not owner of thread") {
		t.Errorf("a user with neither the privilege nor the procedure: err %v, want the server's KILL refusal", err)
	}
	if err := rds.Kill(ctx, target, true); err != nil {
		t.Fatalf("kill through mysql.rds_kill: %v", err)
	}
	select {
	case err := <-done:
		if err == nil {
			t.Error("the session's statement finished instead of losing its connection")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("CALL mysql.rds_kill did not end the session")
	}

	// k: KILL QUERY, through mysql.rds_kill_query: the statement ends, the
	// session stays.
	conn, err := openDB(t, srv.DSN("")).Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const q2 = "SELECT SLEEP(20) /* managed kill query */"
	done2 := make(chan error, 1)
	go func() { _, err := conn.ExecContext(ctx, q2); done2 <- err }()
	target = runningTarget(t, rds, q2)
	if err := rds.Kill(ctx, target, false); err != nil {
		t.Fatalf("kill query through mysql.rds_kill_query: %v", err)
	}
	select {
	case <-done2:
	case <-time.After(5 * time.Second):
		t.Fatal("CALL mysql.rds_kill_query did not end the statement")
	}
	var one int
	if err := conn.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		t.Errorf("the session did not survive its KILL QUERY: %v", err)
	}
}
