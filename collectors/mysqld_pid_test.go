package collectors

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestSocketHolders(t *testing.T) {
	f := newFakeProc(t)
	f.appendTo("net/unix", "0000000000000000: 00000002 00000000 00010000 0001 01 7001 /run/mysqld/mysqld.sock\n"+
		"0000000000000000: 00000003 00000000 00000000 0001 03 7002 /run/mysqld/mysqld.sock\n"+
		"0000000000000000: 00000002 00000000 00010000 0001 01 7003 /run/other.sock\n"+
		"0000000000000000: 00000002 00000000 00010000 0001 01 7004 /run/fwd.sock\n")
	// Port 3306 (0CEA) on 127.0.0.1 and 3307 (0CEB) on any address.
	f.appendTo("net/tcp", "   0: 0100007F:0CEA 00000000:0000 0A 00000000:00000000 00:00000000 00000000   106        0 8001 1\n"+
		"   1: 00000000:0CEB 00000000:0000 0A 00000000:00000000 00:00000000 00000000   106        0 8002 1\n"+
		"   2: 0100007F:0CEC 0100007F:9999 01 00000000:00000000 00:00000000 00000000   106        0 8003 1\n")
	f.process(10, "bash", 7001)         // holds the socket but is no server
	f.process(11, "socat", 7004)        // holds only its own
	f.process(20, "mariadbd", 7003)     // another server
	f.process(30, "mysqld", 7002, 8001) // this one
	f.process(40, "mysqld", 8002)
	cases := []struct {
		addr  string
		pids  []int
		other string
		err   string
	}{
		{"/run/mysqld/mysqld.sock", []int{30}, "", ""},
		{"unix(/run/mysqld/mysqld.sock)", []int{30}, "", ""},
		{"127.0.0.1:3306", []int{30}, "", ""},
		{"127.0.0.2:3306", nil, "", ""},
		{"localhost:3307", []int{40}, "", ""},
		{"tcp(127.0.0.1:3307)", []int{40}, "", ""},
		{":3307", []int{40}, "", ""},
		{"/run/fwd.sock", nil, "socat (pid 11)", ""},
		{"/tmp/absent.sock", nil, "", ""},
		{"127.0.0.1:3308", nil, "", ""},
		{"127.0.0.1:3308x", nil, "", "server port"},
	}
	for _, c := range cases {
		p := newServerProc(f.root, c.addr)
		h, err := p.holdersOf(c.addr, true)
		if !slices.Equal(h.servers, c.pids) || h.other != c.other || (c.err == "") != (err == nil) ||
			err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %+v err %v, want %v %q %q", c.addr, h, err, c.pids, c.other, c.err)
		}
	}
}

// TestServerProc: the one finder the host panel, the per-thread reads, the
// free space and the error log use: kept while the stat line names the same
// server; looked up again at once when it does not, and not before
// pidRetryEvery after a miss.
func TestServerProc(t *testing.T) {
	const sock = "/run/mysqld/mysqld.sock"
	t0 := time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)
	stat := func(comm string, utime, start int) string {
		return "30 (" + comm + ") S 1 30 30 0 -1 0 0 0 0 0 " + itoa(utime) + " 7 0 0 20 0 40 0 " + itoa(start) + " 0 0\n"
	}
	f := newFakeProc(t)
	f.appendTo("net/unix", "0000000000000000: 00000002 00000000 00010000 0001 01 7001 "+sock+"\n")
	f.process(30, "mariadbd", 7001)
	f.write("30/stat", stat("mariadbd", 250, 5000))
	p := newServerProc(f.root, sock)
	if pid, _, err := p.stat(t0, nil); pid != 30 || err != nil {
		t.Fatalf("first: %d %v", pid, err)
	}
	// Read once per tick, whoever asks first.
	f.write("30/stat", stat("mariadbd", 260, 5000))
	if _, st, _ := p.stat(t0, nil); st.utime != 250 {
		t.Errorf("same tick read again: utime %d", st.utime)
	}
	if _, st, _ := p.stat(t0.Add(time.Second), nil); st.utime != 260 {
		t.Errorf("next tick: utime %d", st.utime)
	}
	// The pid now belongs to a server started later: found again at once.
	f.write("30/stat", stat("mariadbd", 3, 9000))
	if pid, st, err := p.stat(t0.Add(2*time.Second), nil); pid != 30 || st.utime != 3 || err != nil {
		t.Errorf("found again: %d %d %v", pid, st.utime, err)
	}
	// Gone for good: the lookup fails, says why, and is not retried for a while.
	os.Remove(filepath.Join(f.root, "30/stat"))
	os.Remove(filepath.Join(f.root, "30/comm"))
	os.RemoveAll(filepath.Join(f.root, "30/fd"))
	f.write("net/unix", "Num       RefCount Protocol Flags    Type St Inode Path\n")
	// (Until the server's variables are read, every tick looks.)
	known := &snapshot.Snapshot{Time: t0, Variables: map[string]string{"hostname": "db1", "port": "3306"}}
	_, _, err := p.stat(t0.Add(4*time.Second), known)
	if !strings.Contains(fmt.Sprint(err), "not local: nothing on this machine listens on "+sock) {
		t.Fatalf("lookup after the loss: %v", err)
	}
	f.appendTo("net/unix", "0000000000000000: 00000002 00000000 00010000 0001 01 7001 "+sock+"\n")
	f.process(30, "mariadbd", 7001)
	f.write("30/stat", stat("mariadbd", 1, 9500))
	if pid, _, _ := p.stat(t0.Add(6*time.Second), known); pid != 0 {
		t.Error("looked up again before pidRetryEvery")
	}
	if pid, _, _ := p.stat(t0.Add(4*time.Second+pidRetryEvery), known); pid != 30 {
		t.Error("not looked up again after pidRetryEvery")
	}
}

func TestMysqldProcFill(t *testing.T) {
	f := newFakeProc(t)
	f.appendTo("net/unix", "0000000000000000: 00000002 00000000 00010000 0001 01 7001 /run/mysqld/mysqld.sock\n")
	f.process(4242, "mariadbd", 7001)
	f.write("4242/stat", "4242 (mariadbd) S 1 4242 4242 0 -1 0 0 0 0 0 250 50 0 0 20 0 1 0 5000 0 0\n")
	dir := t.TempDir()
	m := &mysqldProc{proc: newServerProc(f.root, "/run/mysqld/mysqld.sock")}
	now := time.Now()

	s := &snapshot.Snapshot{Time: now, Host: &snapshot.Host{}, Variables: map[string]string{"datadir": dir}}
	m.fill(s)
	if s.Host.Mysqld == nil || s.Host.Mysqld.Seconds() != 3 || s.Host.Mysqld.UserSeconds != 2.5 || s.Host.Mysqld.PID != 4242 {
		t.Fatalf("mysqld = %+v, want pid 4242 with 2.5 + 0.5 s", s.Host.Mysqld)
	}
	remote := &snapshot.Snapshot{Time: now.Add(time.Second), Host: &snapshot.Host{Remote: true}, Variables: s.Variables}
	m.fill(remote)
	if remote.Host.Mysqld != nil {
		t.Fatal("a remote server's CPU must not be read from this machine")
	}
	none := &mysqldProc{proc: newServerProc(f.root, "/tmp/absent.sock")}
	gone := &snapshot.Snapshot{Time: now, Host: &snapshot.Host{}, Variables: map[string]string{"pid_file": filepath.Join(dir, "gone.pid")}}
	none.fill(gone)
	if gone.Host.Mysqld != nil || !gone.Host.Remote || !strings.Contains(gone.Host.NotLocal, "/tmp/absent.sock") {
		t.Fatalf("a server whose process is not found is not local: %+v", gone.Host)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
