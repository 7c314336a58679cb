package testdb

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestStartAnswersOverSocketAndTCP(t *testing.T) {
	t.Parallel()
	srv := Start(t)
	for _, dsn := range []string{srv.DSN("mysql"), srv.TCPDSN("mysql")} {
		db, err := sql.Open("mysql", dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var version string
		if err := db.QueryRow("SELECT VERSION()").Scan(&version); err != nil {
			t.Fatalf("%s: %v", dsn, err)
		}
		if !strings.Contains(version, "MariaDB") {
			t.Errorf("version %q is not MariaDB", version)
		}
	}
	if srv.PID <= 0 || srv.Port <= 0 {
		t.Errorf("PID %d Port %d", srv.PID, srv.Port)
	}
}

func TestGrantsAreEnforced(t *testing.T) {
	t.Parallel()
	srv := Start(t)
	srv.Exec(t, "CREATE USER 'weak'@'localhost' IDENTIFIED BY 'pw'")
	db, err := sql.Open("mysql", strings.Replace(srv.DSN(""), "root@", "weak:pw@", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = db.Exec("SHOW ENGINE INNODB STATUS")
	if err == nil || !strings.Contains(err.Error(), "PROCESS") {
		t.Errorf("user without PROCESS ran SHOW ENGINE INNODB STATUS: err=%v", err)
	}
}

func TestPauseResumeRestart(t *testing.T) {
	t.Parallel()
	srv := Start(t)
	srv.Exec(t, "CREATE DATABASE d", "CREATE TABLE d.t (i INT) ENGINE=InnoDB", "INSERT INTO d.t VALUES (7)")

	srv.Pause(t)
	db, err := sql.Open("mysql", srv.DSN("")+"?timeout=300ms")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	err = db.PingContext(ctx)
	cancel()
	if err == nil {
		t.Fatal("paused server answered")
	}
	srv.Resume(t)
	if err := db.Ping(); err != nil {
		t.Fatalf("resumed server: %v", err)
	}

	oldPID := srv.PID
	srv.Restart(t)
	if srv.PID == oldPID {
		t.Errorf("PID unchanged after restart: %d", oldPID)
	}
	if err := syscall.Kill(oldPID, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("old process %d still exists: %v", oldPID, err)
	}
	var i int
	if err := db.QueryRow("SELECT i FROM d.t").Scan(&i); err != nil || i != 7 {
		t.Errorf("data after restart: %d, %v", i, err)
	}
}

func TestCloseKillsPausedServerAndRemovesFiles(t *testing.T) {
	t.Parallel()
	SkipShort(t)
	srv, err := Launch()
	if err != nil {
		t.Fatal(err)
	}
	pid := srv.PID
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	srv.Close()
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("server %d survived Close: %v", pid, err)
	}
	if _, err := os.Stat(srv.DataDir); !os.IsNotExist(err) {
		t.Errorf("datadir left behind: %v", err)
	}
}

func TestBadArgumentFailsWithLogTail(t *testing.T) {
	t.Parallel()
	SkipShort(t)
	_, err := Launch("--no-such-option-for-testdb")
	if err == nil || !strings.Contains(err.Error(), "no-such-option-for-testdb") {
		t.Errorf("want an error quoting the bad option, got %v", err)
	}
}

// TestServerThatDiesIsReported kills a server behind testdb's back: the
// death is named with its signal, where a test would otherwise see only
// "connection refused"; a server stopped on purpose is not reported.
func TestServerThatDiesIsReported(t *testing.T) {
	t.Parallel()
	SkipShort(t)
	srv, err := Launch()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if died := srv.DiedOnItsOwn(); died != "" {
		t.Fatalf("a running server reported dead: %s", died)
	}
	if err := syscall.Kill(srv.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var died string
	for deadline := time.Now().Add(10 * time.Second); died == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		died = srv.DiedOnItsOwn()
	}
	if !strings.Contains(died, "signal: killed") {
		t.Errorf("the death is not named with its signal: %q", died)
	}
	srv.Restart(t)
	srv.Stop(t)
	if died := srv.DiedOnItsOwn(); died != "" {
		t.Errorf("a server stopped on purpose reported dead: %s", died)
	}
}

// withoutRunLock lets t take the slot without the lock between test
// processes: the order within this process is the subject, and the other
// packages' heavy tests need not be waited for. t must not be parallel, so
// no other test of this package takes the slot meanwhile.
func withoutRunLock(t *testing.T) {
	runLock = func() func() { return func() {} }
	t.Cleanup(func() { runLock = lockRun })
}
