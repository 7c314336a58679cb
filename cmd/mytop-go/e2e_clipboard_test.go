package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/internal/tmuxtest"
)

// The real binary inside tmux (TERM=screen, tmux's default) with
// set-clipboard on: y on a thread puts its full query in tmux's buffer,
// which tmux got as OSC 52 and would pass on to the outer terminal.
func TestCopyQueryReachesTmuxBuffer(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	srv := testdb.Start(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	query := "SELECT SLEEP(600) AS copied_query_" + strings.Repeat("x", 120)
	sleepers(t, ctx, srv.DB(t), 1, query)
	s := tmuxtest.Start(t, 80, 24, []string{"HOME=" + t.TempDir()},
		bin, "--no-defaults", "-S", srv.Socket, "-uroot", "--interval", "500ms")
	if out, err := s.Tmux("set-option", "-g", "set-clipboard", "on"); err != nil {
		t.Fatalf("set-clipboard: %v: %s", err, out)
	}
	s.WaitFor(20*time.Second, "LIVE", "copied_query_")
	s.Keys("/", "copied_query_", "Enter")
	time.Sleep(time.Second)
	s.Keys("y")
	s.WaitFor(5*time.Second, "copied query of thread")
	var buf string
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		buf, _ = s.Tmux("show-buffer")
		if buf == query {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if buf != query {
		t.Errorf("tmux buffer %q, want the full query %q", buf, query)
	}
	s.Keys("q")
	s.WaitExit(10 * time.Second)
}
