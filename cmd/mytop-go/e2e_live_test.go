package main

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/internal/tmuxtest"
)

// TestLiveDashboardInTmux runs the built binary in a real terminal against a
// throwaway MariaDB and reads what a DBA would see.
func TestLiveDashboardInTmux(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	srv := testdb.Start(t)
	db := srv.DB(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _, _ = db.ExecContext(ctx, "SELECT SLEEP(60) AS e2e_marker") }()

	s := tmuxtest.Start(t, 160, 45, []string{"HOME=" + t.TempDir()},
		bin, "--no-defaults", "-S", srv.Socket, "-uroot", "--interval", "500ms")
	screen := s.WaitFor(20*time.Second, "MariaDB", "SLEEP(60)", "e2e_marker")
	if !strings.Contains(screen, "User") || !strings.Contains(screen, "State") {
		t.Errorf("processlist header missing:\n%s", screen)
	}
	s.QuitCleanly()
}

// TestConnectionErrorsAreOneLine checks what a user sees when the server
// cannot be reached or refuses them: one line, non-zero exit, no password.
func TestConnectionErrorsAreOneLine(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	srv := testdb.Start(t)
	srv.Exec(t, "CREATE USER 'app'@'localhost' IDENTIFIED BY 'right-password'")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"wrong password", []string{"-S", srv.Socket, "-uapp", "-pSecretWrong42"}, "denied"},
		{"refused", []string{"-h", "127.0.0.1", "-P", "1", "-uroot"}, "refused"},
		{"no such socket", []string{"-S", "/nonexistent/mysql.sock", "-uroot"}, "/nonexistent/mysql.sock"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(bin, append([]string{"--no-defaults"}, c.args...)...)
			cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=/usr/bin:/bin"}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if _, ok := err.(*exec.ExitError); !ok {
				t.Fatalf("want a non-zero exit, got %v", err)
			}
			msg := stderr.String()
			if strings.Count(strings.TrimSpace(msg), "\n") != 0 || !strings.Contains(strings.ToLower(msg), c.want) {
				t.Errorf("stderr = %q, want one line mentioning %q", msg, c.want)
			}
			if strings.Contains(msg+stdout.String(), "SecretWrong42") {
				t.Errorf("password leaked: %q", msg)
			}
		})
	}
}
