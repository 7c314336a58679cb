package collectors

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestParsePidStat(t *testing.T) {
	cases := []struct {
		name, in string
		ok       bool
		user     float64
	}{
		{"mariadbd", "4242 (mariadbd) S 1 4242 4242 0 -1 4194560 9 0 0 0 1234 56 0 0 20 0 40 0", true, 12.34},
		{"comm with spaces", "7 (mysqld (a) b) R 1 7 7 0 -1 0 0 0 0 0 300 100 0 0", true, 3},
		{"pid reused by another program", "4242 (bash) S 1 4242 4242 0 -1 0 0 0 0 0 5 5 0 0", false, 0},
		{"short line", "4242 (mysqld) S 1", false, 0},
		{"garbage", "no parens here", false, 0},
	}
	for _, c := range cases {
		got, ok := parsePidStat([]byte(c.in), 1)
		if ok != c.ok || ok && got.UserSeconds != c.user {
			t.Errorf("%s: got %+v %v, want user %v ok %v", c.name, got, ok, c.user, c.ok)
		}
	}
}

func TestMysqldProcFill(t *testing.T) {
	dir := t.TempDir()
	proc := filepath.Join(dir, "proc")
	must(t, os.MkdirAll(filepath.Join(proc, "4242"), 0o755))
	must(t, os.WriteFile(filepath.Join(proc, "4242", "stat"),
		[]byte("4242 (mariadbd) S 1 4242 4242 0 -1 0 0 0 0 0 250 50 0 0 20 0 1 0"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "srv.pid"), []byte("4242\n"), 0o644))
	m := &mysqldProc{procRoot: proc}

	s := &snapshot.Snapshot{Host: &snapshot.Host{}, Variables: map[string]string{"pid_file": "srv.pid", "datadir": dir}}
	m.fill(s)
	if s.Host.Mysqld == nil || s.Host.Mysqld.Seconds() != 3 || s.Host.Mysqld.PID != 4242 {
		t.Fatalf("mysqld = %+v, want pid 4242 with 3 s", s.Host.Mysqld)
	}
	remote := &snapshot.Snapshot{Host: &snapshot.Host{Remote: true}, Variables: s.Variables}
	m.fill(remote)
	if remote.Host.Mysqld != nil {
		t.Fatal("a remote server's CPU must not be read from this machine")
	}
	none := &snapshot.Snapshot{Host: &snapshot.Host{}, Variables: map[string]string{"pid_file": filepath.Join(dir, "gone.pid")}}
	m.fill(none)
	if none.Host.Mysqld != nil {
		t.Fatal("a missing pid file must leave the figure out")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
