package collectors

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestCgroupMemTightestLimit(t *testing.T) {
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	proc, cg := t.TempDir(), t.TempDir()
	write(filepath.Join(proc, "self", "mountinfo"), "25 30 0:23 / "+cg+" rw - cgroup2 cgroup2 rw\n")
	write(filepath.Join(proc, "42", "cgroup"), "0::/kubepods/pod1/mysqld\n")
	// The pod's limit (2 GiB) is tighter than the container's own (max).
	write(filepath.Join(cg, "kubepods", "memory.max"), "max\n")
	write(filepath.Join(cg, "kubepods", "pod1", "memory.max"), "2147483648\n")
	write(filepath.Join(cg, "kubepods", "pod1", "memory.current"), "1500000000\n")
	write(filepath.Join(cg, "kubepods", "pod1", "mysqld", "memory.max"), "max\n")
	write(filepath.Join(cg, "kubepods", "pod1", "mysqld", "memory.current"), "1400000000\n")

	var m cgroupMem
	t0 := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	limit, used := m.read(proc, 42, t0)
	if limit != 2147483648 || used != 1500000000 {
		t.Errorf("limit %d used %d, want the pod's 2147483648 and 1500000000", limit, used)
	}
	// Usage is read every tick, the limits only every cgroupMemCheckEvery.
	write(filepath.Join(cg, "kubepods", "pod1", "memory.current"), "1600000000\n")
	write(filepath.Join(cg, "kubepods", "pod1", "memory.max"), "max\n")
	if limit, used = m.read(proc, 42, t0.Add(time.Second)); limit != 2147483648 || used != 1600000000 {
		t.Errorf("next tick: limit %d used %d", limit, used)
	}
	if limit, used = m.read(proc, 42, t0.Add(cgroupMemCheckEvery)); limit != 0 || used != 0 {
		t.Errorf("limit lifted: limit %d used %d, want none", limit, used)
	}
	// No cgroup file: no limit, no error.
	if limit, used = m.read(proc, 7, t0); limit != 0 || used != 0 {
		t.Errorf("unknown pid: %d %d", limit, used)
	}
}

func TestParseTaskStatRSS(t *testing.T) {
	line := "42 (mariadbd) S 1 1 1 0 -1 0 0 0 0 0 500 100 0 0 20 0 30 0 777 1234567 2500 18446744073709551615\n"
	st, err := parseTaskStat([]byte(line))
	if err != nil || st.rssPages != 2500 || st.utime != 500 {
		t.Errorf("%+v %v, want rss 2500 pages", st, err)
	}
	short := "42 (mariadbd) S 1 1 1 0 -1 0 0 0 0 0 500 100 0 0 20 0 30 0 777\n"
	if st, err := parseTaskStat([]byte(short)); err != nil || st.rssPages != 0 {
		t.Errorf("a line without rss: %+v %v", st, err)
	}
}
