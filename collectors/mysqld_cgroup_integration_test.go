package collectors

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
)

// TestLiveMysqldCPUFromCgroup puts a throwaway MariaDB in a cgroup of its own,
// as systemd would, once under the v2 hierarchy and once under v1 cpuacct,
// burns CPU in it, and checks that the figures serverProc takes from the
// cgroup move as /proc/<pid>/stat's do; then that a second process in the
// cgroup sends it back to /proc.
func TestLiveMysqldCPUFromCgroup(t *testing.T) {
	t.Parallel()    // waits for the heavy slot after this package's other tests
	testdb.Heavy(t) // burns a core and measures mysqld's CPU
	for _, h := range []struct{ name, key, file string }{
		{"v2", "", "cpu.stat"},
		{"v1 cpuacct", "cpuacct", "cpuacct.stat"},
	} {
		t.Run(h.name, func(t *testing.T) {
			mount := cgroupMountFor(t, h.key)
			srv := testdb.Start(t)
			dir := ownCgroupFor(t, mount, h.key, srv.PID)
			p := newServerProc("/proc", srv.Socket)
			statAt(t, p, time.Now()) // anchors
			if want := filepath.Join(dir, h.file); p.cg.file != want || !p.cg.anchored {
				t.Fatalf("source %q (anchored %v, why %q), want %s", p.cg.file, p.cg.anchored, whyNotCgroup(p), want)
			}

			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			burner := openDB(t, srv.DSN(""))
			go func() {
				for ctx.Err() == nil {
					burner.ExecContext(ctx, "SELECT BENCHMARK(20000000, MD5('mytop-go cgroup'))")
				}
			}()
			time.Sleep(300 * time.Millisecond)
			cg0, proc0 := statAt(t, p, time.Now()), procTicks(t, srv.PID)
			time.Sleep(3 * time.Second)
			cg1, proc1 := statAt(t, p, time.Now()), procTicks(t, srv.PID)
			cancel()
			dCg, dProc := float64(cg1-cg0), float64(proc1-proc0)
			// The two reads of a pair are microseconds apart; v1's
			// cpuacct.stat is tick-sampled while /proc scales the exact
			// runtime, hence a few per cent.
			if dProc < 30 || math.Abs(dCg-dProc) > max(5, 0.08*dProc) {
				t.Fatalf("cgroup moved %.0f ticks, /proc %.0f (want at least 30 and within 8 %%)", dCg, dProc)
			}
			if d := math.Abs(float64(cg1) - float64(proc1)); d > max(5, 0.08*dProc) {
				t.Errorf("cgroup figure %d, /proc %d: the anchor does not hold", cg1, proc1)
			}
			t.Logf("over 3 s: cgroup %.0f ticks, /proc %.0f", dCg, dProc)

			// A second process in the cgroup: back to /proc at the next check.
			other := exec.Command("sleep", "60")
			if err := other.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { other.Process.Kill(); other.Wait() }()
			writeProcs(t, dir, other.Process.Pid)
			at := time.Now().Add(cgroupCheckEvery)
			got := statAt(t, p, at)
			if p.cg.file != "" {
				t.Fatalf("still from %s with sleep %d beside mysqld", p.cg.file, other.Process.Pid)
			}
			if want := procTicks(t, srv.PID); got > want || want-got > 2 {
				t.Errorf("fallback figure %d, /proc %d", got, want)
			}
		})
	}
}

// cgroupMountFor is where the hierarchy (key "" for v2) is mounted, or
// skips the test when it is not or cgroups cannot be written.
func cgroupMountFor(t testing.TB, key string) cgroupMount {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("moving mysqld into a cgroup needs root")
	}
	mi, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Skip(err)
	}
	m, ok := parseMountinfo(mi)[key]
	if !ok || m.root != "/" {
		t.Skipf("no cgroup hierarchy %q mounted here at its root", key)
	}
	return m
}

// ownCgroupFor makes a cgroup under m, moves pid into it, and at the end
// moves pid back to where it was and removes the cgroup.
func ownCgroupFor(t testing.TB, m cgroupMount, key string, pid int) string {
	t.Helper()
	cg, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	if err != nil {
		t.Fatal(err)
	}
	orig, ok := m.dirOf(parseProcCgroup(cg)[key])
	if !ok {
		t.Skipf("mysqld's cgroup in %q is not under %s", key, m.point)
	}
	dir := filepath.Join(orig, fmt.Sprintf("mytop-go-test-%d", pid))
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Skipf("cgroups not writable here: %v", err)
	}
	t.Cleanup(func() {
		os.WriteFile(filepath.Join(orig, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644)
		// Other processes moved in by the test are gone or go back too.
		if b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs")); err == nil {
			for line := range procLines(b) {
				os.WriteFile(filepath.Join(orig, "cgroup.procs"), line, 0o644)
			}
		}
		if err := os.Remove(dir); err != nil {
			t.Errorf("remove test cgroup: %v", err)
		}
	})
	writeProcs(t, dir, pid)
	return dir
}

func writeProcs(t testing.TB, dir string, pid int) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0o644); err != nil {
		t.Skipf("cannot move pid %d into %s: %v", pid, dir, err)
	}
}

// statAt is serverProc's CPU figure for a tick at at.
func statAt(t *testing.T, p *serverProc, at time.Time) uint64 {
	t.Helper()
	_, st, err := p.stat(at, nil)
	if err != nil {
		t.Fatal(err)
	}
	return st.cpuTicks()
}

// procTicks reads /proc/<pid>/stat directly.
func procTicks(t *testing.T, pid int) uint64 {
	t.Helper()
	var rd procReader
	b, err := rd.readTask("/proc", pid, 0, "stat")
	if err != nil {
		t.Fatal(err)
	}
	st, err := parseTaskStat(b)
	if err != nil {
		t.Fatal(err)
	}
	return st.cpuTicks()
}
