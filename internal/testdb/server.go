// Package testdb starts a throwaway MariaDB server for integration tests: a
// private datadir copied from a once-initialised template, a private socket and
// a loopback port, killed by PID when the test ends.
//
//	srv := testdb.Start(t, "--query-cache-type=1", "--query-cache-size=16M")
//	db := srv.DB(t)
//
// A TestMain sharing one server between tests uses Launch and Close instead.
package testdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql" // the driver DSN() is written for
)

// startTimeout bounds how long a server may take to answer after launch.
const startTimeout = 60 * time.Second

// Server is one running mariadbd.
type Server struct {
	Socket  string
	Port    int
	DataDir string
	PID     int
	// ErrorLog is the server's --log-error file.
	ErrorLog string
	// Args are the command-line arguments mariadbd was started with.
	Args []string

	dir    string // holds socket, logs and datadir; removed by Close
	binary string
	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{} // closed when the current process has been reaped
	admin  *sql.DB
	closed bool
}

// Start launches a server with the default small settings plus extraArgs and
// registers its shutdown with t.Cleanup. It fails the test when the MariaDB
// binaries are missing, naming the package to install; under -short it skips
// the test (ShortReason).
func Start(t testing.TB, extraArgs ...string) *Server {
	t.Helper()
	return startWith(t, nil, extraArgs)
}

// startWith is Start with launchWith's prepare.
func startWith(t testing.TB, prepare func(*Server) error, extraArgs []string) *Server {
	t.Helper()
	SkipShort(t)
	s, err := launchWith(prepare, extraArgs)
	if err != nil {
		t.Fatalf("testdb: %v", err)
	}
	t.Cleanup(func() {
		if died := s.DiedOnItsOwn(); died != "" {
			t.Errorf("testdb: %s", died)
		}
		s.Close()
	})
	return s
}

// DiedOnItsOwn says how the server ended if it exited without being asked
// to (a crash, the OOM killer, a stray signal), with its log tail; "" while
// it runs or after Stop, Restart or Close. Without it a dead server shows
// only as another test's "connection refused".
func (s *Server) DiedOnItsOwn() string {
	s.mu.Lock()
	cmd, exited := s.cmd, s.exited
	s.mu.Unlock()
	if cmd == nil {
		return ""
	}
	select {
	case <-exited:
		// A crash report (signal, query, backtrace) runs to about 60 lines.
		return fmt.Sprintf("mariadbd (pid %d) exited by itself during the test (%v); log tail:\n%s",
			cmd.Process.Pid, cmd.ProcessState, s.logTailOf(100))
	default:
		return ""
	}
}

// Launch starts a server without a test (e.g. from TestMain); the caller must
// Close it. Under -short it starts nothing and returns ErrShort.
func Launch(extraArgs ...string) (*Server, error) {
	if Short() {
		return nil, ErrShort
	}
	return launchWith(nil, extraArgs)
}

// startSlots bounds how many servers of this process start at once: tests
// run in parallel would otherwise all start theirs in the same second on a
// 2-core machine and each take its full start-up budget.
var startSlots = make(chan struct{}, 2)

// launchWith is Launch with prepare run on the laid-out server (datadir
// copied, ports chosen) before mariadbd starts; prepare may add arguments.
func launchWith(prepare func(*Server) error, extraArgs []string) (*Server, error) {
	binary, err := findBinary(serverBinary)
	if err != nil {
		return nil, err
	}
	tmpl, err := templateDir()
	if err != nil {
		return nil, err
	}
	// A short directory: unix socket paths are limited to ~107 bytes and
	// t.TempDir() embeds the test name.
	dir, err := os.MkdirTemp(shortTempRoot(), "mytopdb-")
	if err != nil {
		return nil, err
	}
	s := &Server{
		dir:      dir,
		binary:   binary,
		Socket:   filepath.Join(dir, "mysqld.sock"),
		DataDir:  filepath.Join(dir, "data"),
		ErrorLog: filepath.Join(dir, "err.log"),
	}
	if err := copyTree(tmpl, s.DataDir); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("copy datadir template: %v", err)
	}
	for attempt := 0; ; attempt++ {
		if s.Port, err = freePort(); err != nil {
			break
		}
		s.Args = s.serverArgs(extraArgs)
		if prepare != nil {
			if err = prepare(s); err != nil {
				break
			}
		}
		startSlots <- struct{}{}
		err = s.launch()
		<-startSlots
		// Another process may take the free port between probe and bind.
		if err == nil || attempt == 2 || !strings.Contains(err.Error(), "Bind on TCP/IP port") {
			break
		}
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Server) serverArgs(extra []string) []string {
	args := []string{
		"--no-defaults",
		"--datadir=" + s.DataDir,
		"--socket=" + s.Socket,
		"--port=" + strconv.Itoa(s.Port),
		"--bind-address=127.0.0.1",
		"--user=root",
		"--log-error=" + s.ErrorLog,
		"--pid-file=" + filepath.Join(s.dir, "mysqld.pid"),
		// Its own tmpdir: with /tmp shared, MariaDB 10.11 servers crashed in
		// ha_maria::drop_table freeing an information_schema query's on-disk
		// temporary table (4 and 7 crashes in two runs of cmd's tests under
		// strace, 1-3 in a full run, most as another server started or
		// restarted); with a tmpdir each, none in two runs.
		"--tmpdir=" + s.dir,
		"--skip-name-resolve",
		"--innodb-buffer-pool-size=16M",
		"--innodb-log-file-size=4M",
		"--innodb-flush-log-at-trx-commit=2",
		"--max-connections=200",
	}
	return append(args, extra...)
}

// launch runs mariadbd with s.Args and waits until it answers.
func (s *Server) launch() error {
	out, err := os.OpenFile(filepath.Join(s.dir, "stdout.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer out.Close()
	cmd := exec.Command(s.binary, s.Args...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = procAttr()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %v", s.binary, err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	s.mu.Lock()
	s.cmd, s.exited, s.PID = cmd, exited, cmd.Process.Pid
	s.mu.Unlock()
	if err := s.waitReady(exited); err != nil {
		s.kill()
		return err
	}
	return nil
}

// waitReady polls the socket until the server accepts a login.
func (s *Server) waitReady(exited chan struct{}) error {
	db, err := sql.Open("mysql", s.DSN("")+"?timeout=1s")
	if err != nil {
		return err
	}
	defer db.Close()
	deadline := time.Now().Add(startTimeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err = db.PingContext(ctx)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("mariadbd exited during start-up; log tail:\n%s", s.logTail())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("mariadbd did not answer within %v (%v); log tail:\n%s", startTimeout, err, s.logTail())
		}
	}
}

// logTail returns the end of the error log and of stdout/stderr, for failures.
func (s *Server) logTail() string { return s.logTailOf(25) }

// logTailOf returns the last n lines of the error log and of stdout/stderr.
func (s *Server) logTailOf(n int) string {
	var b strings.Builder
	for _, name := range []string{s.ErrorLog, filepath.Join(s.dir, "stdout.log")} {
		if data, err := os.ReadFile(name); err == nil && len(data) > 0 {
			b.WriteString(tail(string(data), n))
			b.WriteString("\n")
		}
	}
	return b.String()
}

// LogTail returns the last lines of the server's error log.
func (s *Server) LogTail() string { return s.logTail() }

// shortTempRoot is $TMPDIR unless that is too long for a socket path.
func shortTempRoot() string {
	const maxSocketDir = 80 // leaves room for "/mytopdb-NNNNNNNNN/mysqld.sock"
	if root := os.TempDir(); len(root) <= maxSocketDir {
		return root
	}
	return "/tmp"
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// signal sends sig to the current process, if any.
func (s *Server) signal(sig syscall.Signal) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return errors.New("server is not running")
	}
	return s.cmd.Process.Signal(sig)
}

// kill stops the current process at once (SIGCONT first, in case it is
// paused) and reaps it.
func (s *Server) kill() {
	s.stop(syscall.SIGKILL, 0)
}

// stop sends sig, waits up to grace for exit, then SIGKILLs.
func (s *Server) stop(sig syscall.Signal, grace time.Duration) {
	s.mu.Lock()
	cmd, exited := s.cmd, s.exited
	s.cmd = nil
	s.mu.Unlock()
	if cmd == nil {
		return
	}
	// Through os.Process (a pidfd on Linux), never a bare pid: this
	// machine's pid_max is 32768 and a test run starts thousands of
	// processes and threads, so the pid of a server that has exited can soon
	// be another test's server.
	p := cmd.Process
	p.Signal(syscall.SIGCONT)
	p.Signal(sig)
	select {
	case <-exited:
		return
	case <-time.After(grace):
	}
	p.Signal(syscall.SIGKILL)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
	}
}

// Close kills the server and removes its files. Safe to call twice.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	admin := s.admin
	s.admin = nil
	s.mu.Unlock()
	if admin != nil {
		admin.Close()
	}
	s.kill()
	return os.RemoveAll(s.dir)
}
