package testdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestStartAnswersOverSocketAndTCP(t *testing.T) {
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
	SkipShort(t)
	_, err := Launch("--no-such-option-for-testdb")
	if err == nil || !strings.Contains(err.Error(), "no-such-option-for-testdb") {
		t.Errorf("want an error quoting the bad option, got %v", err)
	}
}

func TestMissingBinaryNamesPackage(t *testing.T) {
	_, err := findBinary("mariadbd-that-does-not-exist")
	if err == nil || !strings.Contains(err.Error(), "apt-get install mariadb-server") {
		t.Errorf("got %v", err)
	}
}

func TestHeavyTestsRunOneAtATime(t *testing.T) {
	// Heavy skips under -short, as every test holding it needs a server.
	SkipShort(t)
	withoutRunLock(t)
	var mu sync.Mutex
	running, most := 0, 0
	for i := range 3 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			t.Cleanup(acquireHeavy(t, false)) // Heavy itself skips under -short
			mu.Lock()
			running++
			most = max(most, running)
			mu.Unlock()
			time.Sleep(300 * time.Millisecond)
			mu.Lock()
			running--
			mu.Unlock()
		})
	}
	t.Cleanup(func() {
		if most != 1 {
			t.Errorf("%d heavy tests ran at once, want 1", most)
		}
	})
}

func TestToolFindsOrSkips(t *testing.T) {
	if p := Tool(t, "coreutils", "no-such-tool-for-testdb", "true"); !strings.HasSuffix(p, "/true") {
		t.Errorf("Tool found %q, want the path of true", p)
	}
	var skipped bool
	t.Run("missing", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Tool(t, "nothing", "no-such-tool-for-testdb")
		t.Error("Tool returned for a missing tool")
	})
	if !skipped {
		t.Error("a missing tool did not skip")
	}
}

func TestHeavyLoadsGoBeforeWaitingHeavyTests(t *testing.T) {
	withoutRunLock(t)
	// The load queues before, among and after three whole tests.
	for _, at := range []int{0, 2, 3} {
		release := acquireHeavy(t, false)
		var mu sync.Mutex
		var order []string
		done := make(chan bool)
		enter := func(name string, load bool) {
			r := acquireHeavy(t, load)
			mu.Lock()
			order = append(order, name)
			mu.Unlock()
			r()
			done <- true
		}
		for i := range 4 {
			if i == at {
				go enter("load", true)
			} else {
				go enter(fmt.Sprint("test", i), false)
			}
			time.Sleep(50 * time.Millisecond)
		}
		release()
		for range 4 {
			<-done
		}
		if order[0] != "load" {
			t.Errorf("load queued at %d: slot taken in the order %v, want the load first", at, order)
		}
	}
}

// TestServerThatDiesIsReported kills a server behind testdb's back: the
// death is named with its signal, where a test would otherwise see only
// "connection refused"; a server stopped on purpose is not reported.
func TestServerThatDiesIsReported(t *testing.T) {
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
