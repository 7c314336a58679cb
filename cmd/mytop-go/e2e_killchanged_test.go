package main

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/internal/tmuxtest"
)

// pooled is one connection that runs the statements sent to it in turn,
// like a pool's connection serving one request after another.
type pooled struct {
	id   int64
	run  chan string
	done chan struct{} // receives when a statement ends
}

func openPooled(t *testing.T, ctx context.Context, db *sql.DB) *pooled {
	t.Helper()
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	p := &pooled{run: make(chan string, 1), done: make(chan struct{}, 1)}
	if err := c.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&p.id); err != nil {
		t.Fatal(err)
	}
	go func() {
		for q := range p.run {
			c.ExecContext(ctx, q)
			p.done <- struct{}{}
		}
	}()
	t.Cleanup(func() { close(p.run) })
	return p
}

// A bulk kill checks each thread again when y is pressed: 20 pooled
// connections match the filter when X asks; before y, 8 of them finish and
// run the next request's statement, which matches the filter too. y kills
// the 12 unchanged statements and none of the 8 new ones.
func TestKillByFilterSparesThreadsThatChangedInTmux(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	srv := testdb.Start(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db := srv.DB(t)
	db.SetMaxOpenConns(40)
	const first, next = "SELECT SLEEP(600) AS batch_sleeper", "SELECT SLEEP(600) AS batch_sleeper_next"
	var conns []*pooled
	for range 20 {
		p := openPooled(t, ctx, db)
		p.run <- first
		conns = append(conns, p)
	}
	deadline := time.Now().Add(20 * time.Second)
	for runningCount(t, db, "batch_sleeper") < 20 {
		if time.Now().After(deadline) {
			t.Fatalf("only %d sleepers running", runningCount(t, db, "batch_sleeper"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	s := tmuxtest.Start(t, 200, 30, []string{"HOME=" + t.TempDir()},
		bin, "--no-defaults", "-S", srv.Socket, "-uroot", "--interval", "500ms")
	s.WaitFor(20*time.Second, "LIVE", "batch_sleeper")
	s.Keys("/", "batch_sleeper", "Enter")
	s.WaitFor(5*time.Second, "batch_sleeper")
	time.Sleep(time.Second) // every sleeper in the shown frame
	s.Keys("X")
	s.WaitFor(10*time.Second, "KILL QUERY of 20 threads")

	// The pool hands 8 connections to the next request.
	for _, p := range conns[:8] {
		srv.Exec(t, fmt.Sprintf("KILL QUERY %d", p.id))
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			t.Fatal("KILL QUERY did not end a sleeper")
		}
		p.run <- next
	}
	deadline = time.Now().Add(10 * time.Second)
	for runningCount(t, db, "batch_sleeper_next") < 8 {
		if time.Now().After(deadline) {
			t.Fatalf("only %d next statements running", runningCount(t, db, "batch_sleeper_next"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(1500 * time.Millisecond) // three ticks: the latest frame has them
	s.Keys("y")
	s.WaitFor(15*time.Second, "KILL QUERY sent to 12 of 20 threads", "8 changed since the question")
	time.Sleep(time.Second)
	if n := runningCount(t, db, "batch_sleeper_next"); n != 8 {
		t.Errorf("%d of the 8 statements that started after the question still run, want 8", n)
	}
	if n := runningCount(t, db, "batch_sleeper") - runningCount(t, db, "batch_sleeper_next"); n != 0 {
		t.Errorf("%d of the 12 unchanged statements still run, want 0", n)
	}
	s.Keys("Escape")
	s.Keys("q")
	if status := s.WaitExit(10 * time.Second); status != "0" {
		t.Errorf("exit status %s:\n%s", status, s.Screen())
	}
}
