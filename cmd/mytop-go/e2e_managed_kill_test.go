package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/internal/tmuxtest"
)

// TestManagedKillInTmux: a monitoring user as on RDS, with PROCESS and the
// right to run mysql.rds_kill and mysql.rds_kill_query (created here as RDS
// ships them: SQL SECURITY DEFINER, defined by root) but neither SUPER nor
// CONNECTION ADMIN, so its own KILL of root's session is refused. In the
// real binary, L then K on the root blocker and y end that session: the
// kill went through the procedure.
func TestManagedKillInTmux(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	srv := testdb.Start(t)
	srv.AddRDSKillUser(t, "rds_mon", "pw")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	holder := lockPileup(t, ctx, srv, 3)
	s := tmuxtest.Start(t, 100, 30, []string{"HOME=" + t.TempDir()},
		bin, "--no-defaults", "-S", srv.Socket, "-urds_mon", "-ppw", "--interval", "500ms")
	s.WaitFor(20*time.Second, "LIVE")
	s.Keys("L")
	s.WaitFor(15*time.Second, "1 root blocker", fmt.Sprintf("▶ %d ", holder))
	s.Keys("K")
	s.WaitFor(5*time.Second, fmt.Sprintf("KILL CONNECTION %d ?", holder))
	s.Keys("y")
	s.WaitFor(15*time.Second, "nothing waits for a lock")
	var n int
	if err := srv.DB(t).QueryRow("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ?", holder).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("holder %d still connected after K as a user whose own KILL is refused:\n%s", holder, s.Screen())
	}
	s.Keys("q")
	if status := s.WaitExit(10 * time.Second); status != "0" {
		t.Errorf("exit status %s:\n%s", status, s.Screen())
	}
}
