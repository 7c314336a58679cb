package collectors

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// localTree is a procfs a test writes for locate: this machine booted at
// boot, called db1.
type localTree struct {
	*fakeProc
	boot time.Time
}

func newLocalTree(t *testing.T) *localTree {
	f := &localTree{fakeProc: newFakeProc(t), boot: time.Unix(1_800_000_000, 0)}
	f.write("stat", "cpu  1 2 3 4 5 6 7 0 0 0\nbtime 1800000000\nprocesses 9\n")
	f.write("self/mountinfo", "20 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n")
	return f
}

// server adds a process started at began, holding the given socket inodes,
// working in cwd ("" for none readable).
func (f *localTree) server(pid int, comm string, began time.Time, cwd string, sockets ...int) {
	f.process(pid, comm, sockets...)
	ticks := began.Sub(f.boot) * userHZ / time.Second
	f.write(itoa(pid)+"/stat", itoa(pid)+" ("+comm+") S 1 1 1 0 -1 0 0 0 0 0 120 30 0 0 20 0 40 0 "+itoa(int(ticks))+" 0 0\n")
	if cwd != "" {
		os.Symlink(cwd, filepath.Join(f.root, itoa(pid), "cwd"))
	}
}

func (f *localTree) unixListener(inode int, path string) {
	f.appendTo("net/unix", "0000000000000000: 00000002 00000000 00010000 0001 01 "+itoa(inode)+" "+path+"\n")
}

// tcpListener adds a listening socket on ip (hex, as /proc prints it) and port.
func (f *localTree) tcpListener(inode int, hexIP string, port uint16) {
	f.appendTo("net/tcp", "   0: "+hexIP+":"+strings.ToUpper(hex4(port))+" 00000000:0000 0A 00000000:00000000 00:00000000 00000000   106        0 "+itoa(inode)+" 1\n")
}

func hex4(p uint16) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[p>>12], digits[p>>8&15], digits[p>>4&15], digits[p&15]})
}

const (
	loopback1 = "0100007F" // 127.0.0.1
	loopback2 = "0200007F" // 127.0.0.2
	anyIPv4   = "00000000"
)

// TestLocate: the server is taken as this machine's only when its process is
// found and confirmed, and otherwise the reason names what was found.
func TestLocate(t *testing.T) {
	now := time.Unix(1_800_100_000, 0)
	upAt := now.Add(-2 * time.Hour) // the server's start, by its Uptime
	datadir := t.TempDir()
	facts := func(port string, mod ...func(v, st map[string]string)) *snapshot.Snapshot {
		v := map[string]string{"port": port, "socket": "/run/mysqld/mysqld.sock", "hostname": "db1", "datadir": datadir}
		st := map[string]string{"Uptime": "7200"}
		for _, m := range mod {
			m(v, st)
		}
		return &snapshot.Snapshot{Time: now, Variables: v, Status: st}
	}
	cases := []struct {
		name  string
		addr  string
		setup func(f *localTree)
		snap  *snapshot.Snapshot
		pid   int
		how   string // part of how it was confirmed, or of why it was not
	}{
		{"the socket's holder is mysqld", "/run/mysqld/mysqld.sock", func(f *localTree) {
			f.unixListener(7001, "/run/mysqld/mysqld.sock")
			f.server(30, "mariadbd", upAt, "", 7001)
		}, nil, 30, "pid 30 holds /run/mysqld/mysqld.sock"},
		{"two servers: each socket names its own", "/run/mysqld/b.sock", func(f *localTree) {
			f.unixListener(7001, "/run/mysqld/mysqld.sock")
			f.unixListener(7002, "/run/mysqld/b.sock")
			f.server(30, "mariadbd", upAt, "", 7001)
			f.server(40, "mariadbd", upAt, "", 7002)
		}, nil, 40, "pid 40 holds"},
		{"a port on every address", "127.0.0.1:3306", func(f *localTree) {
			f.tcpListener(8001, anyIPv4, 3306)
			f.server(30, "mysqld", upAt, "", 8001)
		}, nil, 30, "pid 30 holds 127.0.0.1:3306"},
		{"an SSH tunnel beside a local mysqld that is another server", "127.0.0.1:3307", func(f *localTree) {
			f.tcpListener(8001, anyIPv4, 3306)
			f.tcpListener(8002, loopback1, 3307)
			f.server(30, "mysqld", upAt.Add(-24*time.Hour), datadir, 8001)
			f.process(10, "ssh", 8002)
		}, facts("3306"), 0, "127.0.0.1:3307 is held by ssh (pid 10), not by a mysqld (a tunnel or a forwarder); " +
			"no mysqld here is this server: pid 30 started at"},
		{"a tunnel to a server named otherwise", "127.0.0.1:3307", func(f *localTree) {
			f.tcpListener(8001, anyIPv4, 3306)
			f.tcpListener(8002, loopback1, 3307)
			f.server(30, "mysqld", upAt, datadir, 8001)
			f.process(10, "ssh", 8002)
		}, facts("3306", func(v, _ map[string]string) { v["hostname"] = "db7" }), 0, `@@hostname "db7" is not this machine's`},
		{"a forwarder to this machine's mysqld, found by @@port", "127.0.0.1:4000", func(f *localTree) {
			f.tcpListener(8001, anyIPv4, 3306)
			f.tcpListener(8002, loopback1, 4000)
			f.server(30, "mariadbd", upAt.Add(time.Second), datadir, 8001)
			f.process(10, "fwd", 8002)
		}, facts("3306"), 30, "held by fwd (pid 10)"},
		{"two servers behind forwarders: @@port picks its own", "127.0.0.1:4000", func(f *localTree) {
			f.tcpListener(8001, anyIPv4, 3306)
			f.tcpListener(8003, anyIPv4, 3307)
			f.tcpListener(8002, loopback1, 4000)
			f.server(30, "mariadbd", upAt, "", 8001)
			f.server(40, "mariadbd", upAt, "", 8003)
			f.process(10, "fwd", 8002)
		}, facts("3307"), 40, "pid 40 is the server"},
		{"a listener on another loopback address is not the one connected to", "127.0.0.2:3306", func(f *localTree) {
			f.tcpListener(8001, loopback1, 3306)
			f.tcpListener(8002, loopback2, 3306)
			f.server(30, "mysqld", upAt.Add(-time.Hour), "", 8001)
			f.process(10, "socat", 8002)
		}, facts("3306"), 0, "127.0.0.2:3306 is held by socat (pid 10)"},
		{"a container's published port: nothing listens here", "127.0.0.1:33060", func(f *localTree) {
			f.tcpListener(8001, anyIPv4, 3306)
			f.server(30, "mysqld", upAt.Add(-time.Hour), "", 8001)
		}, facts("3306"), 0, "nothing on this machine listens on 127.0.0.1:33060"},
		{"the variables are not read yet", "127.0.0.1:4000", func(f *localTree) {
			f.tcpListener(8002, loopback1, 4000)
			f.process(10, "fwd", 8002)
		}, nil, 0, "the server's variables are not read yet"},
		{"pid_file, when hostname, datadir and start agree", "/run/mysqld/other.sock", func(f *localTree) {
			f.server(30, "mariadbd", upAt, datadir)
			must(t, os.WriteFile(filepath.Join(datadir, "srv.pid"), []byte("30\n"), 0o644))
		}, facts("0", func(v, _ map[string]string) { v["pid_file"] = "srv.pid" }), 30, "pid 30 is the server"},
		{"pid_file of a server whose name is another machine's", "/run/mysqld/other.sock", func(f *localTree) {
			f.server(30, "mariadbd", upAt, datadir)
			must(t, os.WriteFile(filepath.Join(datadir, "srv.pid"), []byte("30\n"), 0o644))
		}, facts("0", func(v, _ map[string]string) { v["pid_file"] = "srv.pid"; v["hostname"] = "db7" }), 0,
			`@@hostname "db7" is not this machine's`},
		{"pid_file of a mysqld working elsewhere", "/run/mysqld/other.sock", func(f *localTree) {
			f.server(30, "mariadbd", upAt, "/var/lib/mysql-other")
			must(t, os.WriteFile(filepath.Join(datadir, "srv.pid"), []byte("30\n"), 0o644))
		}, facts("0", func(v, _ map[string]string) { v["pid_file"] = "srv.pid" }), 0, "pid 30 works in /var/lib/mysql-other"},
		{"pid_file naming another program", "/run/mysqld/other.sock", func(f *localTree) {
			f.process(30, "bash")
			must(t, os.WriteFile(filepath.Join(datadir, "srv.pid"), []byte("30\n"), 0o644))
		}, facts("0", func(v, _ map[string]string) { v["pid_file"] = "srv.pid" }), 0, "names pid 30, not a mysqld"},
		{"Uptime unknown: nothing is proved", "127.0.0.1:4000", func(f *localTree) {
			f.tcpListener(8001, anyIPv4, 3306)
			f.tcpListener(8002, loopback1, 4000)
			f.server(30, "mariadbd", upAt, "", 8001)
			f.process(10, "fwd", 8002)
		}, facts("3306", func(_, st map[string]string) { delete(st, "Uptime") }), 0, "the server's Uptime is unknown"},
		{"one socket path in two mount namespaces: the facts tell", "/run/mysqld/mysqld.sock", func(f *localTree) {
			f.unixListener(7001, "/run/mysqld/mysqld.sock")
			f.unixListener(7002, "/run/mysqld/mysqld.sock")
			f.tcpListener(8003, anyIPv4, 3307)
			f.server(30, "mariadbd", upAt.Add(-time.Hour), "", 7001)
			f.server(40, "mariadbd", upAt, "", 7002, 8003)
		}, facts("3307"), 40, "2 mysqld processes hold /run/mysqld/mysqld.sock"},
		{"an address of another machine", "192.0.2.7:3306", func(f *localTree) {
			f.tcpListener(8001, anyIPv4, 3306)
			f.server(30, "mysqld", upAt, "", 8001)
		}, facts("3306"), 0, "server is on another machine (192.0.2.7:3306)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newLocalTree(t)
			c.setup(f)
			p := newServerProc(f.root, c.addr)
			p.hostname = "db1"
			pid, _, err := p.stat(now, c.snap)
			got := p.how
			if err != nil {
				got = err.Error()
				if !strings.HasPrefix(got, "not local: ") {
					t.Errorf("not a not-local reason: %q", got)
				}
			}
			if pid != c.pid || !strings.Contains(got, c.how) {
				t.Errorf("pid %d (%s), want %d with %q", pid, got, c.pid, c.how)
			}
		})
	}
}

// TestNotLocalEverywhere: what is not confirmed is said as such by the host
// panel's part, the per-thread reads, the free space and the error log, and
// none of them reads this machine's figures as the server's.
func TestNotLocalEverywhere(t *testing.T) {
	f := newLocalTree(t)
	now := time.Unix(1_800_100_000, 0)
	f.tcpListener(8001, anyIPv4, 3306)
	f.tcpListener(8002, loopback1, 3307)
	f.server(30, "mysqld", now.Add(-20*time.Hour), "", 8001) // the machine's own server, up 20 hours
	f.process(10, "ssh", 8002)
	p := newServerProc(f.root, "127.0.0.1:3307")
	p.hostname = "db1"
	dir := t.TempDir()
	s := &snapshot.Snapshot{Time: now, Collectors: map[snapshot.CollectorName]snapshot.CollectorState{},
		Variables: map[string]string{"port": "3306", "hostname": "db1", "datadir": dir, "log_error": filepath.Join(dir, "err.log")},
		Status:    map[string]string{"Uptime": "600", "Access_denied_errors": "1"},
		Host:      &snapshot.Host{Hostname: "db1", NumCPU: 8}}
	(&mysqldProc{proc: p}).fill(s)
	if s.Host == nil || !s.Host.Remote || s.Host.NumCPU != 0 || !strings.Contains(s.Host.NotLocal, "held by ssh (pid 10)") {
		t.Errorf("host: %+v", s.Host)
	}
	ds := newDiskSpace(p)
	if err := ds.Collect(context.Background(), s); err != nil || s.Filesystems != nil {
		t.Errorf("disk space read: %v %+v", err, s.Filesystems)
	}
	el := newErrorLog(p)
	if err := el.Collect(context.Background(), s); err != nil || s.RefusedLogins != nil {
		t.Errorf("error log read: %v %+v", err, s.RefusedLogins)
	}
	ts := newThreadStats(&serverLink{}, time.Second, p)
	ts.tmap, ts.mapAt = threadMap{}, now
	if _, ok := ts.process(s); ok {
		t.Error("per-thread reads of this machine's mysqld")
	}
	for _, c := range []snapshot.CollectorName{snapshot.CollectorDiskSpace, snapshot.CollectorErrorLog, snapshot.CollectorThreads} {
		if u := s.Collectors[c].Unavailable; !strings.HasPrefix(u, "not local: 127.0.0.1:3307 is held by ssh") {
			t.Errorf("%s: %q", c, u)
		}
	}
}

// TestMysqldInAnotherMountNamespace: a mysqld in a container sharing the
// host's network: its directories are read through /proc/<pid>/root and its
// block mounts come from its own mount table.
func TestMysqldInAnotherMountNamespace(t *testing.T) {
	f := newLocalTree(t)
	now := time.Unix(1_800_100_000, 0)
	const sock = "/run/mysqld/mysqld.sock"
	f.unixListener(7001, sock)
	f.server(30, "mariadbd", now.Add(-time.Hour), "", 7001)
	f.write("30/mountinfo", "500 400 8:17 /containers/db/data / rw - ext4 /dev/sdb1 rw\n")
	f.write("30/root/var/lib/mysql/ibdata1", "x")
	sys := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(sys, "devices", "sdb", "sdb1"), 0o755))
	must(t, os.WriteFile(filepath.Join(sys, "devices", "sdb", "sdb1", "partition"), []byte("1\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(sys, "dev", "block"), 0o755))
	must(t, os.Symlink(filepath.Join(sys, "devices", "sdb", "sdb1"), filepath.Join(sys, "dev", "block", "8:17")))
	p := newServerProc(f.root, sock)
	p.hostname, p.sys = "db1", sys
	s := &snapshot.Snapshot{Time: now, Collectors: map[snapshot.CollectorName]snapshot.CollectorState{},
		Variables: map[string]string{"datadir": "/var/lib/mysql/"}, Host: &snapshot.Host{Hostname: "db1",
			Mounts: []snapshot.Mount{{Point: "/", Device: "sda"}}}}
	(&mysqldProc{proc: p}).fill(s)
	if s.Host.Remote || s.Host.Mysqld == nil || s.Host.Mysqld.PID != 30 {
		t.Fatalf("host: %+v", s.Host)
	}
	if len(s.Host.Mounts) != 1 || s.Host.Mounts[0] != (snapshot.Mount{Point: "/", Device: "sdb"}) {
		t.Errorf("mounts: %+v, want mysqld's own / on sdb", s.Host.Mounts)
	}
	ds := newDiskSpace(p)
	if err := ds.Collect(context.Background(), s); err != nil || len(s.Filesystems) != 1 ||
		s.Filesystems[0].Path != "/var/lib/mysql" {
		t.Errorf("disk space: %v %+v", err, s.Filesystems)
	}
	// In the monitor's own namespace the host's table stands.
	f.write("30/mountinfo", "20 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n")
	q := newServerProc(f.root, sock)
	q.hostname = "db1"
	s2 := &snapshot.Snapshot{Time: now, Host: &snapshot.Host{Mounts: []snapshot.Mount{{Point: "/", Device: "sda"}}}}
	(&mysqldProc{proc: q}).fill(s2)
	if root, ok := q.fsRoot(); !ok || root != "" || s2.Host.Mounts[0].Device != "sda" {
		t.Errorf("same namespace: root %q %v, mounts %+v", root, ok, s2.Host.Mounts)
	}
}

func TestProcNetIP(t *testing.T) {
	for h, want := range map[string]string{
		"0100007F": "127.0.0.1", "00000000": "0.0.0.0", "0000000000000000FFFF00000100007F": "127.0.0.1",
		"00000000000000000000000001000000": "::1", "zz": "<nil>",
	} {
		if got := procNetIP(h).String(); got != want {
			t.Errorf("%s: %s, want %s", h, got, want)
		}
	}
}

// TestForwarderLeadsElsewhereNow: a process confirmed by the server's facts
// behind a forwarder is checked against them every tick: when the server
// answering is another (restarted elsewhere, the tunnel pointed at another
// machine) while this machine's mysqld runs on, it is no longer taken.
func TestForwarderLeadsElsewhereNow(t *testing.T) {
	f := newLocalTree(t)
	now := time.Unix(1_800_100_000, 0)
	f.tcpListener(8001, anyIPv4, 3306)
	f.tcpListener(8002, loopback1, 4000)
	f.server(30, "mariadbd", now.Add(-time.Hour), "", 8001)
	f.process(10, "ssh", 8002)
	p := newServerProc(f.root, "127.0.0.1:4000")
	p.hostname = "db1"
	snap := func(at time.Time, uptime string) *snapshot.Snapshot {
		return &snapshot.Snapshot{Time: at, Variables: map[string]string{"port": "3306", "hostname": "db1"},
			Status: map[string]string{"Uptime": uptime}}
	}
	if pid, _, err := p.stat(now, snap(now, "3600")); pid != 30 || err != nil {
		t.Fatalf("through the tunnel to this machine's mysqld: %d %v", pid, err)
	}
	if pid, _, err := p.stat(now.Add(time.Second), snap(now.Add(time.Second), "3601")); pid != 30 || err != nil {
		t.Fatalf("next tick: %d %v", pid, err)
	}
	// The tunnel now leads to a server up 5 minutes: not this mysqld.
	pid, _, err := p.stat(now.Add(2*time.Second), snap(now.Add(2*time.Second), "300"))
	if pid != 0 || !strings.Contains(fmt.Sprint(err), "not local: 127.0.0.1:4000 is held by ssh (pid 10)") {
		t.Fatalf("another server behind the tunnel: %d %v", pid, err)
	}
}
