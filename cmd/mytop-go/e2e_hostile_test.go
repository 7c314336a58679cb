package main

import (
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/internal/tmuxtest"
)

// TestHostileTextIsEscapedOnScreen puts terminal controls, bytes that are
// not UTF-8 and a 1 MB statement in front of the live dashboard: the screen
// keeps its layout, shows ESC and BEL as '?', CR as a space and the bad bytes
// as \xNN, and the 1 MB statement opens in full without freezing the keys.
func TestHostileTextIsEscapedOnScreen(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	srv := testdb.Start(t)
	const user = "ev\x1b[2J\r\x07il"
	srv.Exec(t, "CREATE USER '"+user+"'@'localhost'")
	testdb.RunUntilEnd(t, userDB(t, srv, user), "SELECT SLEEP(60) /* \x1b[2J\r\x07 \xff\xfe tail */")
	testdb.RunUntilEnd(t, srv.DB(t), "SELECT SLEEP(60) /* huge "+strings.Repeat("x", 1<<20)+" */")

	s := tmuxtest.Start(t, 200, 45, []string{"HOME=" + t.TempDir()},
		bin, "--no-defaults", "-S", srv.Socket, "-uroot", "--interval", "500ms")
	screen := s.WaitFor(20*time.Second, "ev?[2J ?il", `/* ?[2J ? \xFF\xFE tail */`, "/* huge xxxx")
	for _, frame := range []string{"mytop-go", "Findings", "Processlist", "Server /s", "? help"} {
		if !strings.Contains(screen, frame) {
			t.Errorf("layout lost %q:\n%s", frame, screen)
		}
	}
	if n := strings.Count(screen, "\n"); n < 44 {
		t.Errorf("screen has %d lines, want the full 45:\n%s", n, screen)
	}

	// The 1 MB statement in full: the modal opens and closes, keys still work.
	s.Keys("/")
	s.Keys("-l", "huge")
	s.Keys("Enter")
	s.WaitFor(5*time.Second, "1 shown")
	s.Keys("Enter")
	s.WaitFor(10*time.Second, " Thread ", "/* huge", strings.Repeat("x", 150))
	s.Keys("Escape")
	waitGoneWithin(t, s, " Thread ", 10*time.Second)
	s.QuitCleanly()
}

// userDB opens a pool for a passwordless user whose name a DSN string could
// not spell.
func userDB(t *testing.T, srv *testdb.Server, user string) *sql.DB {
	t.Helper()
	cfg := mysql.NewConfig()
	cfg.User, cfg.Net, cfg.Addr = user, "unix", srv.Socket
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(conn)
	t.Cleanup(func() { db.Close() })
	return db
}
