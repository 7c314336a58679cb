package analyzers

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// The monthly-incident reproductions's last two refusals, reproduced on a throwaway MariaDB: a client
// host blocked by max_connect_errors (error 1129) and an account at its own
// MAX_USER_CONNECTIONS (error 1226).
//
// The server never counts connection errors from 127.0.0.1 or ::1
// (hostname.cc: "Do not count connect errors from localhost"), so the
// blocked client comes from 127.0.0.2, another address of the loopback
// interface, with name resolution on: MariaDB consults the host cache only
// when it resolves client names.

// otherLoopback is the client address the server counts errors for.
const otherLoopback = "127.0.0.2"

// fromOtherLoopback is the go-sql-driver network that dials from
// otherLoopback: "app:pw@from127002(127.0.0.1:port)/".
const fromOtherLoopback = "from127002"

var registerOtherLoopback sync.Once

func otherLoopbackDSN(srv *testdb.Server, user, pw string) string {
	registerOtherLoopback.Do(func() {
		mysql.RegisterDialContext(fromOtherLoopback, func(ctx context.Context, addr string) (net.Conn, error) {
			d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(otherLoopback)}, Timeout: 2 * time.Second}
			return d.DialContext(ctx, "tcp", addr)
		})
	})
	return fmt.Sprintf("%s:%s@%s(%s)/?timeout=2s", user, pw, fromOtherLoopback, srv.Addr())
}

// portCheck opens a TCP connection from otherLoopback, reads the server's
// greeting and closes without answering it, as a load balancer's health
// check does: a handshake error for the host. It returns the greeting.
func portCheck(srv *testdb.Server) (string, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(otherLoopback)}, Timeout: 2 * time.Second}
	c, err := d.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(srv.Port)))
	if err != nil {
		return "", err
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	buf := make([]byte, 256)
	n, err := c.Read(buf)
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	return string(buf[:n]), nil
}

// portChecks runs portCheck every pause until the workload stops or done is
// closed (nil: never); after the
// n-th check it notes the time in *nth (unix nanoseconds).
func (w *workload) portChecks(srv *testdb.Server, pause time.Duration, n int64, nth *atomic.Int64, checks *atomic.Int64,
	done <-chan struct{}) {
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		for w.ctx.Err() == nil {
			select {
			case <-done:
				return
			default:
			}
			if _, err := portCheck(srv); err != nil && w.ctx.Err() == nil {
				w.t.Logf("port check: %v", err)
			}
			if checks.Add(1) == n {
				nth.Store(time.Now().UnixNano())
			}
			time.Sleep(pause)
		}
	}()
}

// loginsDSN runs n clients that log in with dsn, run SELECT 1 and log out,
// pausing pause between logins; failed logins are counted in *failed.
func (w *workload) loginsDSN(dsn string, n int, pause time.Duration, failed *atomic.Int64) {
	for range n {
		db, err := sql.Open("mysql", dsn)
		if err != nil {
			w.t.Fatal(err)
		}
		db.SetMaxIdleConns(0)
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			defer db.Close()
			for w.ctx.Err() == nil {
				if _, err := db.ExecContext(w.ctx, "SELECT 1"); err != nil && w.ctx.Err() == nil {
					failed.Add(1)
				}
				time.Sleep(pause)
			}
		}()
	}
}

func mysqlErrno(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}

func TestIntegrationHostBlocked(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--max-connect-errors=3", "--performance-schema=ON", "--skip-name-resolve=OFF")
	appAccount(t, srv)
	w := newWorkload(t)
	checksDone := make(chan struct{})
	var blockedAt, checks atomic.Int64
	var named, crit *snapshot.Finding
	var namedAfter, clearedAfter time.Duration
	var flushedAt time.Time
	critSeq := -1
	// A health check from 127.0.0.2 that opens the port and hangs up, every
	// 300 ms: the third makes the host blocked. Once named (and critical, as
	// the checks go on being refused), the checks stop and FLUSH HOSTS
	// unblocks the host: the finding must clear.
	frames := watch(t, srv, within(90*time.Second), until(func(f *snapshot.Frame) bool {
		if !w.startWhenWarm(f, DefaultConfig(), func() {
			w.portChecks(srv, 300*time.Millisecond, 3, &blockedAt, &checks, checksDone)
		}) {
			return false
		}
		x := findingIn(f, IDConnectionErrors)
		switch {
		case named == nil:
			if x != nil && strings.Contains(x.Title, "host "+otherLoopback+" is blocked") && blockedAt.Load() != 0 {
				named = x
				namedAfter = f.Snapshot.Time.Sub(time.Unix(0, blockedAt.Load()))
			}
			return false
		case crit == nil:
			if x != nil && x.Severity == snapshot.Critical {
				crit, critSeq = x, f.Seq
				blockedClient(t, srv)
				close(checksDone)
				time.Sleep(500 * time.Millisecond) // the last check ends
				srv.Exec(t, "FLUSH HOSTS")
				flushedAt = time.Now()
			}
			return false
		default:
			clearedAfter = f.Snapshot.Time.Sub(flushedAt)
			return x == nil
		}
	})).frames
	if named == nil || crit == nil {
		t.Fatalf("the blocked host was not named (named %v, critical %v) in %d frames", named != nil, crit != nil,
			len(frames))
	}
	t.Logf("connection_errors named the blocked host %.1f s after the third failed handshake:\n%s\n%s\n%s",
		namedAfter.Seconds(), crit.Title, strings.Join(crit.Evidence, "\n"), crit.Advice)
	if namedAfter > 10*time.Second {
		t.Errorf("connection_errors named the blocked host %.1f s after the block, want within 10 s", namedAfter.Seconds())
	}
	wantEvidence(t, crit, "by max_connect_errors=3 after 3 connection errors in a row",
		"error 1129 until FLUSH HOSTS", "blocked: host "+otherLoopback+", 3 connection errors in a row (3 in the handshake",
		"connections refused as blocked in the last", "performance_schema.host_cache", "mariadb-admin flush-hosts",
		"max_connect_errors = 10000")
	for i, f := range frames {
		if f.Seq == critSeq {
			sameInReplay(t, frames[:i+1], DefaultConfig(), crit)
		}
	}
	if findingIn(frames[len(frames)-1], IDConnectionErrors) != nil {
		t.Fatalf("still raised %.1f s after FLUSH HOSTS", time.Since(flushedAt).Seconds())
	}
	t.Logf("cleared %.1f s after FLUSH HOSTS", clearedAfter.Seconds())
	if clearedAfter > 20*time.Second {
		t.Errorf("cleared %.1f s after FLUSH HOSTS, want within 20 s (host cache recheck 10 s, clear 5 s)",
			clearedAfter.Seconds())
	}
	// Unblocked: the application's login from that host works again.
	db, err := sql.Open("mysql", otherLoopbackDSN(srv, "app", "right"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Ping(); err != nil {
		t.Errorf("after FLUSH HOSTS a client from %s: %v", otherLoopback, err)
	}
}

// blockedClient asserts that a real client from the blocked host, with the
// right password, is refused with 1129, while 127.0.0.1 is not.
func blockedClient(t *testing.T, srv *testdb.Server) {
	db, err := sql.Open("mysql", otherLoopbackDSN(srv, "app", "right"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Ping()
	if mysqlErrno(err) != 1129 {
		t.Errorf("a client from %s got %v, want error 1129", otherLoopback, err)
	}
	t.Logf("the real client from %s: %v", otherLoopback, err)
	root, err := sql.Open("mysql", srv.TCPDSN(""))
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if err := root.Ping(); err != nil {
		t.Errorf("a client from 127.0.0.1 (never blocked): %v", err)
	}
}

func TestIntegrationUserConnectionLimit(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t)
	srv.Exec(t, "CREATE USER lim@'%' IDENTIFIED BY 'right' WITH MAX_USER_CONNECTIONS 3")
	got := leakToLimit(t, srv, "lim", 1226, "'lim'@'%' holds 3 connections")
	wantEvidence(t, got, "its MAX_USER_CONNECTIONS is 3: its new logins are refused (error 1226)",
		"at limit: 'lim'@'%', 3 connections of 3 (its own MAX_USER_CONNECTIONS, mysql.user), from 127.0.0.1 3",
		"logins failed after authentication", "ALTER USER 'lim'@'%' WITH MAX_USER_CONNECTIONS n")
}

// TestIntegrationGlobalUserConnectionLimit: the same leak by an account
// without a limit of its own, under the server's max_user_connections=3.
func TestIntegrationGlobalUserConnectionLimit(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--max-user-connections=3")
	srv.Exec(t, "CREATE USER glob@'%' IDENTIFIED BY 'right'")
	got := leakToLimit(t, srv, "glob", 1203, "user glob holds 3 connections, max_user_connections=3")
	wantEvidence(t, got, "its new logins are refused (error 1203)",
		"at limit: user glob, 3 connections of 3 (the global max_user_connections; the account has none of its own), from 127.0.0.1 3",
		"logins failed after authentication", "SET GLOBAL max_user_connections = n")
}

// leakToLimit has user leak three connections (held open, idle) and then
// ask for a fourth every 300 ms, which the server refuses with errno; it
// returns the finding whose title has title, named within 10 s of the first
// refusal.
func leakToLimit(t *testing.T, srv *testdb.Server, user string, errno uint16, title string) *snapshot.Finding {
	w := newWorkload(t)
	var firstRefusal, refused atomic.Int64
	dsn := fmt.Sprintf("%s:right@tcp(%s)/?timeout=2s", user, srv.Addr())
	frames, got, _ := watch(t, srv, within(60*time.Second), load(w, func() {
		pool, err := sql.Open("mysql", dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pool.Close() })
		for range 3 {
			c, err := pool.Conn(w.ctx)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
		}
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			for w.ctx.Err() == nil {
				db, err := sql.Open("mysql", dsn)
				if err == nil {
					err = db.PingContext(w.ctx)
					db.Close()
				}
				if mysqlErrno(err) == errno {
					firstRefusal.CompareAndSwap(0, time.Now().UnixNano())
					refused.Add(1)
				} else if w.ctx.Err() == nil {
					w.t.Errorf("a fourth login of %s: %v, want error %d", user, err, errno)
				}
				time.Sleep(300 * time.Millisecond)
			}
		}()
	}), onset(func(f *snapshot.Frame) *snapshot.Finding {
		x := findingIn(f, IDConnectionErrors)
		if x != nil && strings.Contains(x.Title, title) {
			return x
		}
		return nil
	})).result()
	if firstRefusal.Load() == 0 {
		t.Fatalf("the client was never refused with error %d", errno)
	}
	after := frames[len(frames)-1].Snapshot.Time.Sub(time.Unix(0, firstRefusal.Load()))
	t.Logf("connection_errors named %s %.1f s after the first error %d (%d refused)", user, after.Seconds(), errno,
		refused.Load())
	if after > 10*time.Second {
		t.Errorf("named %.1f s after the first refusal, want within 10 s", after.Seconds())
	}
	sameInReplay(t, frames, DefaultConfig(), got)
	return got
}

// TestIntegrationConnectLimitsHealthy: the twin of both. Name resolution on,
// performance_schema on, max_connect_errors at its default: the application
// logs in from 127.0.0.2 all the time, a health check hangs up on the port
// now and then (each good login resets the host's count), someone mistypes
// a password, and an account holds 2 of its 10 connections.
func TestIntegrationConnectLimitsHealthy(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--performance-schema=ON", "--skip-name-resolve=OFF")
	appAccount(t, srv)
	srv.Exec(t, "CREATE USER lim@'%' IDENTIFIED BY 'right' WITH MAX_USER_CONNECTIONS 10")
	w := newWorkload(t)
	var failed, typo, checks, unused atomic.Int64
	frames := watch(t, srv, load(w, func() {
		w.loginsDSN(otherLoopbackDSN(srv, "app", "right"), 2, 50*time.Millisecond, &failed)
		w.loginsDSN(otherLoopbackDSN(srv, "app", "wrnog"), 1, 7*time.Second, &typo)
		w.portChecks(srv, 2*time.Second, -1, &unused, &checks, nil)
		pool, err := sql.Open("mysql", fmt.Sprintf("lim:right@tcp(%s)/?timeout=2s", srv.Addr()))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pool.Close() })
		for range 2 {
			c, err := pool.Conn(w.ctx)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
		}
	}), runFor(25*time.Second)).frames
	quietBut(t, dropWarmUp(frames), IDConnectionErrors)
	last := frames[len(frames)-1]
	conns, _ := last.Rates.Rate("Connections")
	var worst int64
	for _, f := range frames {
		for _, h := range f.Snapshot.HostErrors {
			worst = max(worst, h.ConnectErrors)
		}
	}
	t.Logf("healthy: %.0f logins/s, %d typos, %d port checks, %d good logins failed; at most %d connect errors "+
		"in a row for a host; limits read: %v", conns, typo.Load(), checks.Load(), failed.Load(), worst,
		last.Snapshot.AccountLimits)
	if conns < 10 || typo.Load() == 0 || checks.Load() < 5 {
		t.Errorf("the workload did not run: %.0f logins/s, %d typos, %d checks", conns, typo.Load(), checks.Load())
	}
	if len(last.Snapshot.AccountLimits) == 0 {
		t.Errorf("the accounts' limits were not read: %+v", last.Snapshot.Collectors[snapshot.CollectorAccountLimits])
	}
	if st := last.Snapshot.Collectors[snapshot.CollectorHostCache]; st.Unavailable != "" || st.Error != "" {
		t.Errorf("the host cache was not read: %+v", st)
	}
}

// TestIntegrationHostBlockedWithoutHostCache: the same port checks with
// performance_schema off (MariaDB's default), faster, so the refusals pass
// the rule's 3/s. Nothing names a blocked host then: the finding must say
// which host's handshakes failed (error log) and that it is probably
// blocked, without claiming it is.
func TestIntegrationHostBlockedWithoutHostCache(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--max-connect-errors=3", "--performance-schema=OFF", "--skip-name-resolve=OFF")
	appAccount(t, srv) // a host no account matches is refused (1130) before its errors count
	w := newWorkload(t)
	var blockedAt, checks atomic.Int64
	frames, got, _ := watch(t, srv, within(60*time.Second), load(w, func() {
		w.portChecks(srv, 100*time.Millisecond, 3, &blockedAt, &checks, nil)
	}), onset(func(f *snapshot.Frame) *snapshot.Finding {
		x := findingIn(f, IDConnectionErrors)
		if x != nil && strings.Contains(strings.Join(x.Evidence, "\n"), "host "+otherLoopback+" probably blocked") {
			return x
		}
		return nil
	})).result()
	after := frames[len(frames)-1].Snapshot.Time.Sub(time.Unix(0, blockedAt.Load()))
	t.Logf("the suspect named %.1f s after the third failed handshake", after.Seconds())
	if after > 10*time.Second {
		t.Errorf("suspect named %.1f s after the block, want within 10 s", after.Seconds())
	}
	if greeting, err := portCheck(srv); err != nil || !strings.Contains(greeting, "is blocked") {
		t.Fatalf("the host is not blocked: %q %v", greeting, err)
	}
	sameInReplay(t, frames, DefaultConfig(), got)
	if strings.Contains(got.Title, "is blocked") {
		t.Errorf("a host named blocked without the host cache: %s", got.Title)
	}
	wantEvidence(t, got, "a host may be blocked by max_connect_errors=3 (error 1129)", "performance_schema is off",
		"Aborted_connects_preauth", "Connections fail before they log in", "FLUSH HOSTS")
}
