package collectors

import (
	"bytes"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// The monitoring password is rotated on a server that blocks an account at
// 3 password errors, while a headless monitor runs on an option file: its
// sampling session is lost, its login refused. It must never block the
// account (no 4150, and the account logs in afterwards with the new
// password), and must log in again once the option file has the new
// password. The schedule is shortened so a retry of the old password, if
// the gate allowed one, would happen within the test.
func TestLiveRotatedPasswordNeverBlocksTheAccount(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--max-password-errors=3")
	srv.Exec(t, "CREATE USER 'mon'@'localhost' IDENTIFIED BY 'old-pw'", "GRANT PROCESS ON *.* TO 'mon'@'localhost'")
	cnf := filepath.Join(t.TempDir(), "my.cnf")
	writeClientCnf(t, cnf, srv.Socket, "old-pw")

	var log lockedBuffer
	live := buildFromFlags(t, &log, "--defaults-file", cnf, "--no-login-paths", "--interval", "250ms")
	live.gate.schedule = []time.Duration{time.Second}
	defer live.Close()
	ctx := context.Background()
	if err := live.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	tickUntil(t, live, 5*time.Second, "sampling", func(s *snapshot.Snapshot) bool { return !s.Server.Unreachable })
	if live.gate.limit != 3 {
		t.Errorf("the server's max_password_errors read as %d, want 3", live.gate.limit)
	}

	deniedBefore := accessDenied(t, srv)
	srv.Exec(t, "ALTER USER 'mon'@'localhost' IDENTIFIED BY 'new-pw'")
	srv.KillSessionsOf(t, "mon")
	s := tickUntil(t, live, 10*time.Second, "a refused login", func(s *snapshot.Snapshot) bool { return s.Server.LoginRefused != "" })
	if s.Server.LoginRefused != snapshot.LoginAccessDenied || !strings.Contains(s.Server.Error, "login refused") {
		t.Errorf("refusal %q, error %q", s.Server.LoginRefused, s.Server.Error)
	}
	// Many schedule steps go by: the old password is not tried again.
	for end := time.Now().Add(6 * time.Second); time.Now().Before(end); {
		nextOf(t, live)
	}
	if n := accessDenied(t, srv) - deniedBefore; n != 1 {
		t.Errorf("%d refused logins while the option file kept the old password, want 1", n)
	}
	if !strings.Contains(log.String(), "login refused (access_denied)") {
		t.Errorf("log %q: want the refusal said", log.String())
	}

	writeClientCnf(t, cnf, srv.Socket, "new-pw")
	tickUntil(t, live, 15*time.Second, "sampling with the new password", func(s *snapshot.Snapshot) bool {
		return !s.Server.Unreachable && s.Server.LoginRefused == ""
	})
	if !strings.Contains(log.String(), "logged in again") {
		t.Errorf("log %q: want the new login said", log.String())
	}
	db, err := sql.Open("mysql", fmt.Sprintf("mon:new-pw@unix(%s)/", srv.Socket))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Ping(); err != nil {
		t.Fatalf("the account no longer logs in: %v", err)
	}
	if n := accessDenied(t, srv) - deniedBefore; n != 1 {
		t.Errorf("%d refused logins in all, want 1", n)
	}
	if b, _ := os.ReadFile(srv.ErrorLog); strings.Contains(string(b), "blocked") {
		t.Errorf("the server's log says an account was blocked")
	}
}

func writeClientCnf(t *testing.T, path, socket, pw string) {
	t.Helper()
	body := fmt.Sprintf("[client]\nuser = mon\npassword = %s\nsocket = %s\n", pw, socket)
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// buildFromFlags is the headless Live the command-line flags args give,
// its log lines into log.
func buildFromFlags(t *testing.T, log *lockedBuffer, args ...string) *Live {
	t.Helper()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	lf := AddLiveFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	live, err := lf.Build(lf.Conn, log)
	if err != nil {
		t.Fatal(err)
	}
	return live
}

func nextOf(t *testing.T, live *Live) *snapshot.Snapshot {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := live.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func tickUntil(t *testing.T, live *Live, within time.Duration, what string, ok func(*snapshot.Snapshot) bool) *snapshot.Snapshot {
	t.Helper()
	var s *snapshot.Snapshot
	for end := time.Now().Add(within); time.Now().Before(end); {
		if s = nextOf(t, live); ok(s) {
			return s
		}
	}
	t.Fatalf("no %s within %v (last error %q)", what, within, s.Server.Error)
	return nil
}

// accessDenied counts the refused logins of mon in the server's error log
// (Access_denied_errors would count refused statements too).
func accessDenied(t *testing.T, srv *testdb.Server) int {
	t.Helper()
	b, err := os.ReadFile(srv.ErrorLog)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "Access denied for user 'mon'@'localhost'")
}

// lockedBuffer is a log the Live's goroutines may write to.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
