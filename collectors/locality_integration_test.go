package collectors

import (
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mytop-go/mytop-go/internal/connopt"
	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// forwarder listens on a loopback port of its own and passes each
// connection to upstream (network "tcp" or "unix"), as ssh -L, socat or a
// container's published port would: the monitor reaches the server through
// a loopback address that no mysqld holds.
func forwarder(t *testing.T, network, upstream string) (host string, port int) {
	t.Helper()
	addr := loopbackServer(t, func(c net.Conn) {
		defer c.Close()
		up, err := net.Dial(network, upstream)
		if err != nil {
			return
		}
		defer up.Close()
		done := make(chan struct{}, 2)
		go func() { io.Copy(up, c); done <- struct{}{} }()
		go func() { io.Copy(c, up); done <- struct{}{} }()
		<-done
	})
	h, p, _ := net.SplitHostPort(addr)
	n, _ := strconv.Atoi(p)
	return h, n
}

// loopbackServer listens on a loopback port of its own and hands each
// connection to serve, in a goroutine, until the test ends; it returns the
// address.
func loopbackServer(t *testing.T, serve func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				serve(c)
			}()
		}
	}()
	return ln.Addr().String()
}

// localityOf runs a live source with the host collector and returns its
// first tick whose every part answered, and the source (whose finder says
// how the process was confirmed).
func localityOf(t *testing.T, o connopt.Options) (*snapshot.Snapshot, *Live) {
	t.Helper()
	l := newLive(t, o, testInterval, func(opts *LiveOptions) { opts.Host = hostFor(connopt.AddressOf(configFor(t, o))) })
	return awaitHealthy(t, l), l
}

func tcpOptions(host string, port int) connopt.Options {
	return connopt.Options{Host: host, Port: port, Protocol: "tcp", User: "root", PasswordSet: true, SSLMode: "DISABLED"}
}

// mustBeLocal: this machine's figures are the server's, from its own pid.
func mustBeLocal(t *testing.T, s *snapshot.Snapshot, l *Live, pid int) {
	t.Helper()
	if s.Host == nil || s.Host.Remote || s.Host.Mysqld == nil || s.Host.Mysqld.PID != pid {
		t.Errorf("host %+v, want this machine's with mysqld pid %d", s.Host, pid)
	}
	if s.Threads == nil || s.Threads.PID != pid {
		t.Errorf("threads %+v (%q), want pid %d", s.Threads, s.Collectors[snapshot.CollectorThreads].Unavailable, pid)
	}
	if len(s.Filesystems) == 0 {
		t.Errorf("no free space read: %q", s.Collectors[snapshot.CollectorDiskSpace].Unavailable)
	}
	if _, err := os.Stat("/proc/pressure/cpu"); err == nil && s.Pressure == nil {
		t.Errorf("no pressure stalls read: %q", s.Collectors[snapshot.CollectorPressure].Unavailable)
	}
	t.Logf("confirmed: %s", l.proc.how)
}

// TestLiveLocalityFromTheProcess: a server is this machine's when its process
// is found and confirmed, whichever address reaches it, and each monitor of
// two servers on one machine picks its own.
func TestLiveLocalityFromTheProcess(t *testing.T) {
	// Serial: on the shared server, whose processlist and sessions other tests' monitors would share.
	a := sharedServer(t)
	b := testdb.Start(t)
	t.Run("socket", func(t *testing.T) {
		s, l := localityOf(t, rootOptions(a))
		mustBeLocal(t, s, l, a.PID)
		if !strings.Contains(l.proc.how, "holds "+a.Socket) {
			t.Errorf("confirmed by %q, want by its socket", l.proc.how)
		}
	})
	t.Run("its own port", func(t *testing.T) {
		s, l := localityOf(t, tcpOptions("127.0.0.1", b.Port))
		mustBeLocal(t, s, l, b.PID)
	})
	// A forwarder on another loopback port: the address names the test's
	// own process, not a mysqld. The server is found by what it says of
	// itself (@@port, @@hostname, its start time), and it is this
	// machine's: the honest answer is local, through the forwarder.
	for _, srv := range []*testdb.Server{a, b} {
		t.Run("through a forwarder to pid "+strconv.Itoa(srv.PID), func(t *testing.T) {
			s, l := localityOf(t, tcpOptions(forwarder(t, "tcp", srv.Addr())))
			mustBeLocal(t, s, l, srv.PID)
			if !strings.Contains(l.proc.how, "not by a mysqld") {
				t.Errorf("confirmed by %q, want through the forwarder", l.proc.how)
			}
		})
	}
}

// TestLiveNotLocalBehindAForwarder: a server in a container of this machine
// (its own hostname and network) reached through a forwarder on loopback,
// as a published port is: the address is loopback, but no mysqld of this
// machine can be confirmed as the server. The host panel, per-thread CPU and
// I/O, free space and error log say "not local" and why, and show none of
// this machine's figures as the server's.
func TestLiveNotLocalBehindAForwarder(t *testing.T) {
	t.Parallel()
	srv := testdb.StartNamespaced(t, "ctr-db7")
	s, l := localityOf(t, tcpOptions(forwarder(t, "unix", srv.Socket)))
	if got := s.Variables["hostname"]; got != "ctr-db7" {
		t.Fatalf("@@hostname %q: the server is not in its own namespace", got)
	}
	if s.Host == nil || !s.Host.Remote || s.Host.Mysqld != nil || s.Host.NumCPU != 0 ||
		!strings.Contains(s.Host.NotLocal, "not by a mysqld") || !strings.Contains(s.Host.NotLocal, `@@hostname "ctr-db7"`) {
		t.Errorf("host %+v", s.Host)
	}
	if s.Threads != nil || len(s.Filesystems) > 0 || s.Pressure != nil {
		t.Errorf("read this machine for the server: threads %+v, filesystems %+v, pressure %+v", s.Threads,
			s.Filesystems, s.Pressure)
	}
	for _, c := range []snapshot.CollectorName{snapshot.CollectorThreads, snapshot.CollectorDiskSpace,
		snapshot.CollectorErrorLog, snapshot.CollectorPressure} {
		if u := s.Collectors[c].Unavailable; !strings.HasPrefix(u, "not local: ") {
			t.Errorf("%s: %q", c, u)
		}
	}
	if n := strings.Count(s.Host.NotLocal, "ctr-db7"); n != 1 {
		t.Errorf("the reason says the same %d times: %s", n, s.Host.NotLocal)
	}
	t.Logf("host panel: not local: %s", s.Host.NotLocal)
	if l.proc.pid != 0 {
		t.Errorf("pid %d taken for the server", l.proc.pid)
	}
}
