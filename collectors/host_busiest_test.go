package collectors

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// writeStat writes a fake /proc/<pid>/stat with CPU ticks utime+stime.
func writeStat(t *testing.T, root string, pid int, comm string, utime, stime uint64) {
	t.Helper()
	dir := filepath.Join(root, fmt.Sprint(pid))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	line := fmt.Sprintf("%d (%s) S 1 1 1 0 -1 0 0 0 0 0 %d %d 0 0 20 0 1 0 777 0 0\n", pid, comm, utime, stime)
	if err := os.WriteFile(filepath.Join(dir, "stat"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBusiestProcs(t *testing.T) {
	root := t.TempDir()
	b := &busiestProcs{root: root}
	t0 := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	// Two CPUs; idle is the share of each 2-s CPU second not busy.
	sample := func(i int, idlePct float64) *snapshot.Snapshot {
		idle := idlePct / 100 * 2 * float64(i)
		return &snapshot.Snapshot{Time: t0.Add(time.Duration(i) * time.Second), Host: &snapshot.Host{NumCPU: 2,
			CPU: snapshot.CPUTimes{Idle: idle, User: 2*float64(i) - idle}, Mysqld: &snapshot.ProcessCPU{PID: 42}}}
	}
	procs := func(i int) {
		writeStat(t, root, 42, "mariadbd", uint64(500*i), 0) // skipped: its figure is Host.Mysqld
		writeStat(t, root, 100, "postgres", uint64(80*i), uint64(10*i))
		writeStat(t, root, 200, "redis-server", uint64(30*i), 0)
		writeStat(t, root, 300, "idle daemon (x)", 5, 5)
		writeStat(t, root, 400, "cron", uint64(4*i), 0) // 0.04 CPUs: under busiestMinCPUs
	}
	var got [][]snapshot.ProcessUse
	for i, idle := range []float64{90, 90, 5, 5, 5, 50, 5} {
		procs(i)
		s := sample(i, idle)
		// The idle share is measured against the previous sample's.
		if i > 0 {
			prev := sample(i-1, idle)
			s.Host.CPU.Idle = prev.Host.CPU.Idle + idle/100*2
			s.Host.CPU.User = prev.Host.CPU.User + (100-idle)/100*2
		}
		b.fill(s)
		got = append(got, s.Host.Busiest)
	}
	// Read at 0 (the first), 2 (busy, over the 2 s since 0), 3, 4 and 6
	// (busy); 1 and 5 are idle within busiestEvery and carry the last read.
	for i, want := range []int{0, 0, 2, 2, 2, 2, 2} {
		if len(got[i]) != want {
			t.Errorf("sample %d: %d processes (%v), want %d", i, len(got[i]), got[i], want)
		}
	}
	if len(got[5]) != len(got[4]) || len(got[5]) > 0 && &got[5][0] != &got[4][0] {
		t.Errorf("idle tick 5 did not carry tick 4's read: %v, %v", got[5], got[4])
	}
	top := got[3]
	if len(top) == 2 && (top[0].Name != "postgres" || top[0].PID != 100 || top[0].CPUs < 0.89 || top[0].CPUs > 0.91 ||
		top[1].Name != "redis-server" || top[1].CPUs < 0.29 || top[1].CPUs > 0.31) {
		t.Errorf("busiest %+v, want postgres 0.9 CPUs, redis-server 0.3", top)
	}

	// A remote server's host is not this machine.
	remote := &snapshot.Snapshot{Time: t0, Host: &snapshot.Host{Remote: true}}
	b.fill(remote)
	if remote.Host.Busiest != nil {
		t.Errorf("remote: %v", remote.Host.Busiest)
	}
}

// An idle host is read every busiestEvery, its figures over that span, and
// carried between reads.
func TestBusiestProcsIdleHostEveryFewSeconds(t *testing.T) {
	root := t.TempDir()
	b := &busiestProcs{root: root}
	t0 := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	var got [][]snapshot.ProcessUse
	for i := 0; i <= 11; i++ {
		writeStat(t, root, 100, "backup-agent", uint64(20*i), 0) // 0.2 CPUs
		s := &snapshot.Snapshot{Time: t0.Add(time.Duration(i) * time.Second), Host: &snapshot.Host{NumCPU: 2,
			CPU: snapshot.CPUTimes{Idle: 1.8 * float64(i), User: 0.2 * float64(i)}}}
		b.fill(s)
		got = append(got, s.Host.Busiest)
	}
	for i, g := range got {
		want := i >= 5
		if (len(g) == 1) != want {
			t.Fatalf("tick %d: %v, want a figure %v", i, g, want)
		}
		if want && (g[0].Name != "backup-agent" || g[0].CPUs < 0.19 || g[0].CPUs > 0.21) {
			t.Errorf("tick %d: %+v, want backup-agent at 0.2 CPUs", i, g[0])
		}
	}
}

// BenchmarkBusiestRead is one read of every process's stat on this machine:
// its cost every tick on a busy host, every busiestEvery on another.
func BenchmarkBusiestRead(b *testing.B) {
	p := &busiestProcs{}
	n := 0
	for b.Loop() {
		n = len(p.read(0))
	}
	b.ReportMetric(float64(n), "procs")
}
