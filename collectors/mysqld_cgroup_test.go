package collectors

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseMountinfo(t *testing.T) {
	cases := []struct {
		name, text string
		want       map[string]cgroupMount
	}{
		{"v2 only", "25 30 0:23 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n" +
			"22 30 0:21 / /proc rw,nosuid shared:12 - proc proc rw\n",
			map[string]cgroupMount{"": {"/", "/sys/fs/cgroup"}}},
		// This machine's: v1 controllers each on their own, v2 beside them.
		{"hybrid", "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n" +
			"32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n" +
			"33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct\n" +
			"40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n" +
			"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n",
			map[string]cgroupMount{"": {"/", "/sys/fs/cgroup/unified"}, "rw": {"/", "/sys/fs/cgroup/cpu"},
				"cpu": {"/", "/sys/fs/cgroup/cpu"}, "cpuacct": {"/", "/sys/fs/cgroup/cpuacct"},
				"name=systemd": {"/", "/sys/fs/cgroup/systemd"}}},
		// v1 with cpu and cpuacct together, in a container (a subtree as
		// the mount's root), a mount point with a space, optional fields.
		{"v1 joint, container", "30 25 0:26 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro,nosuid shared:9 master:2 - cgroup cgroup rw,cpu,cpuacct\n" +
			"31 25 0:27 / /mnt/my\\040cg rw - cgroup2 none rw\n",
			map[string]cgroupMount{"rw": {"/docker/abc", "/sys/fs/cgroup/cpu,cpuacct"}, "cpu": {"/docker/abc", "/sys/fs/cgroup/cpu,cpuacct"},
				"cpuacct": {"/docker/abc", "/sys/fs/cgroup/cpu,cpuacct"}, "": {"/", "/mnt/my cg"}}},
		{"none", "22 30 0:21 / /proc rw - proc proc rw\nbroken line\n", map[string]cgroupMount{}},
	}
	for _, c := range cases {
		if got := parseMountinfo([]byte(c.text)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestParseProcCgroup(t *testing.T) {
	cases := []struct {
		text string
		want map[string]string
	}{
		{"0::/system.slice/mariadb.service\n", map[string]string{"": "/system.slice/mariadb.service"}},
		{"12:cpu,cpuacct:/system.slice/mysql.service\n11:memory:/system.slice/mysql.service\n1:name=systemd:/system.slice/mysql.service\n0::/system.slice/mysql.service\n",
			map[string]string{"cpu": "/system.slice/mysql.service", "cpuacct": "/system.slice/mysql.service",
				"memory": "/system.slice/mysql.service", "name=systemd": "/system.slice/mysql.service", "": "/system.slice/mysql.service"}},
		{"2:cpuacct:/\n0::/\n", map[string]string{"cpuacct": "/", "": "/"}},
		{"garbage\n", map[string]string{}},
	}
	for _, c := range cases {
		if got := parseProcCgroup([]byte(c.text)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %v, want %v", c.text, got, c.want)
		}
	}
}

func TestParseCgroupCPU(t *testing.T) {
	cases := []struct {
		name, text   string
		v2           bool
		utime, stime uint64
		err          bool
	}{
		{"v2 without the cpu controller", "usage_usec 12345678\nuser_usec 10000000\nsystem_usec 2345678\n", true, 1000, 234, false},
		{"v2 with it", "usage_usec 5\nuser_usec 250000\nsystem_usec 90000\nnr_periods 0\nnr_throttled 0\nthrottled_usec 0\n", true, 25, 9, false},
		{"v2 truncated", "usage_usec 5\n", true, 0, 0, true},
		{"v1", "user 4242\nsystem 17\n", false, 4242, 17, false},
		{"v1 empty", "", false, 0, 0, true},
	}
	for _, c := range cases {
		parse := parseCpuacctStat
		if c.v2 {
			parse = parseCPUStat
		}
		u, s, err := parse([]byte(c.text))
		if u != c.utime || s != c.stime || (err != nil) != c.err {
			t.Errorf("%s: %d %d %v, want %d %d err %v", c.name, u, s, err, c.utime, c.stime, c.err)
		}
	}
}

// TestServerProcFromCgroup: a fake /proc whose mountinfo points at a fake
// cgroup tree. Alone in its cgroup, mysqld's CPU comes from cpu.stat,
// shifted to go on from /proc's figure, with only the main thread's stat
// read; with a second process, a child cgroup in use, or the root cgroup,
// from /proc/<pid>/stat; a restart under the same pid anchors anew.
func TestServerProcFromCgroup(t *testing.T) {
	const sock = "/run/mysqld/mysqld.sock"
	t0 := time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)
	stat := func(utime, stime, start int) string {
		return "30 (mariadbd) S 1 30 30 0 -1 0 0 0 0 0 " + itoa(utime) + " " + itoa(stime) + " 0 0 20 0 40 0 " + itoa(start) + " 0 0\n"
	}
	setup := func(t *testing.T, path string) (*fakeProc, string, *serverProc) {
		f := newFakeProc(t)
		cg := t.TempDir()
		f.write("self/mountinfo", "41 31 0:38 / "+cg+" rw,relatime - cgroup2 cgroup2 rw\n")
		f.write("30/cgroup", "0::"+path+"\n")
		f.appendTo("net/unix", "0000000000000000: 00000002 00000000 00010000 0001 01 7001 "+sock+"\n")
		f.process(30, "mariadbd", 7001)
		f.write("30/stat", stat(500, 100, 5000))
		f.write("30/task/30/stat", stat(7, 1, 5000)) // the main thread's own
		dir := filepath.Join(cg, path)
		must(t, os.MkdirAll(dir, 0o755))
		must(t, os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte("30\n"), 0o644))
		must(t, os.WriteFile(filepath.Join(dir, "cpu.stat"), []byte("usage_usec 9000000\nuser_usec 8000000\nsystem_usec 1000000\n"), 0o644))
		return f, dir, newServerProc(f.root, sock)
	}
	cpuAt := func(t *testing.T, p *serverProc, at time.Time) (uint64, uint64) {
		t.Helper()
		pid, st, err := p.stat(at, nil)
		if pid != 30 || err != nil {
			t.Fatalf("stat: %d %v", pid, err)
		}
		return st.utime, st.stime
	}
	setCPU := func(dir string, userUS, sysUS int) {
		must(t, os.WriteFile(filepath.Join(dir, "cpu.stat"),
			[]byte("usage_usec 1\nuser_usec "+itoa(userUS)+"\nsystem_usec "+itoa(sysUS)+"\n"), 0o644))
	}

	t.Run("alone", func(t *testing.T) {
		f, dir, p := setup(t, "/system.slice/mariadb.service")
		// The first tick anchors: /proc's figures, as before.
		if u, s := cpuAt(t, p, t0); u != 500 || s != 100 {
			t.Fatalf("anchoring tick: %d %d, want /proc's 500 100", u, s)
		}
		// Then the cgroup's movement on /proc's scale: +1.5 s user, +0.2 s
		// system; /proc/30/stat is not read (its figures left stale here).
		setCPU(dir, 9_500_000, 1_200_000)
		if u, s := cpuAt(t, p, t0.Add(time.Second)); u != 650 || s != 120 {
			t.Fatalf("from the cgroup: %d %d, want 650 120", u, s)
		}
		if p.cg.file != filepath.Join(dir, "cpu.stat") || !p.cg.v2 {
			t.Fatalf("source %q", p.cg.file)
		}
		// A second process joins: noticed at the next check, not before.
		must(t, os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte("30\n31\n"), 0o644))
		f.write("30/stat", stat(660, 125, 5000))
		if u, _ := cpuAt(t, p, t0.Add(2*time.Second)); u != 650 {
			t.Fatalf("checked again before cgroupCheckEvery: %d", u)
		}
		if u, s := cpuAt(t, p, t0.Add(time.Second+cgroupCheckEvery)); u != 660 || s != 125 || p.cg.file != "" {
			t.Fatalf("shared cgroup: %d %d from %q, want /proc's 660 125", u, s, p.cg.file)
		}
		if why := whyNotCgroup(p); !strings.Contains(why, "shares its cgroup") {
			t.Errorf("why: %q", why)
		}
		// Alone again: anchored anew, then from the cgroup.
		must(t, os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte("30\n"), 0o644))
		at := t0.Add(time.Second + 2*cgroupCheckEvery)
		if u, _ := cpuAt(t, p, at); u != 660 {
			t.Fatalf("re-anchoring tick: %d", u)
		}
		setCPU(dir, 9_600_000, 1_200_000)
		if u, _ := cpuAt(t, p, at.Add(time.Second)); u != 670 {
			t.Fatalf("after re-anchoring: %d, want 670", u)
		}
		// Restarted under the same pid: found again at once, checked and
		// anchored to the new process's figures.
		f.write("30/task/30/stat", stat(1, 0, 9000))
		f.write("30/stat", stat(3, 1, 9000))
		if pid, _, err := p.stat(at.Add(2*time.Second), nil); pid != 30 || err != nil {
			t.Fatalf("restart: %d %v", pid, err)
		}
		if u, s := cpuAt(t, p, at.Add(3*time.Second)); u != 3 || s != 1 {
			t.Fatalf("after the restart: %d %d, want 3 1", u, s)
		}
		setCPU(dir, 9_700_000, 1_200_000)
		if u, _ := cpuAt(t, p, at.Add(4*time.Second)); u != 13 {
			t.Fatalf("after the restart, from the cgroup: %d, want 13", u)
		}
		// The cgroup vanishes: this tick's figures from /proc.
		os.Remove(filepath.Join(dir, "cpu.stat"))
		f.write("30/stat", stat(20, 2, 9000))
		if u, _ := cpuAt(t, p, at.Add(5*time.Second)); u != 20 {
			t.Fatalf("unreadable cgroup: %d, want /proc's 20", u)
		}
	})

	for _, c := range []struct {
		name, path string
		prep       func(dir string)
		why        string
	}{
		{"root cgroup", "/", nil, "root cgroup"},
		{"busy child cgroup", "/system.slice/mariadb.service", func(dir string) {
			must(t, os.MkdirAll(filepath.Join(dir, "helper"), 0o755))
			must(t, os.WriteFile(filepath.Join(dir, "helper", "cgroup.procs"), []byte("77\n"), 0o644))
		}, "below mysqld's"},
		{"another process", "/user.slice", func(dir string) {
			must(t, os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte("1\n30\n"), 0o644))
		}, "shares its cgroup"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, dir, p := setup(t, c.path)
			if c.prep != nil {
				c.prep(dir)
			}
			cpuAt(t, p, t0)
			if u, s := cpuAt(t, p, t0.Add(time.Second)); u != 500 || s != 100 || p.cg.file != "" {
				t.Fatalf("%d %d from %q, want /proc's 500 100", u, s, p.cg.file)
			}
			if why := whyNotCgroup(p); !strings.Contains(why, c.why) {
				t.Errorf("why %q, want %q", why, c.why)
			}
		})
	}
}

// whyNotCgroup is why p's server is not read from its cgroup, as the last
// check found (its files are unchanged since).
func whyNotCgroup(p *serverProc) string {
	_, _, why := ownCgroupFile(p.root, p.pid)
	return why
}
