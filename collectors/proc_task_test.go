package collectors

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestParseTaskStat(t *testing.T) {
	cases := []struct {
		name, in            string
		ok                  bool
		comm                string
		utime, stime, start uint64
		state               byte
	}{
		{"thread", "4242 (my (odd) name) S 1 4242 4242 0 -1 4194368 9 0 0 0 150 37 0 0 20 0 55 0 987654 0 0\n",
			true, "my (odd) name", 150, 37, 987654, 'S'},
		{"mariadbd, a full line", "4242 (mariadbd) S 1 4242 4242 0 -1 4194560 9 0 0 0 1234 56 0 0 20 0 40 0 5000 " +
			"1000000 200 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n", true, "mariadbd", 1234, 56, 5000, 'S'},
		{"comm with spaces", "7 (mysqld (a) b) R 1 7 7 0 -1 0 0 0 0 0 300 100 0 0 20 0 1 0 77 0", true, "mysqld (a) b", 300, 100, 77, 'R'},
		{"cut before starttime", "4242 (mysqld) S 1 4242 4242 0 -1 0 0 0 0 0 5 5 0 0", false, "", 0, 0, 0, 0},
		{"short line", "4242 (mysqld) S 1", false, "", 0, 0, 0, 0},
		{"no parentheses", "4242 no parens", false, "", 0, 0, 0, 0},
		{"empty", "", false, "", 0, 0, 0, 0},
		{"closing before opening", "1 )x( S 1 2", false, "", 0, 0, 0, 0},
	}
	for _, c := range cases {
		st, err := parseTaskStat([]byte(c.in))
		if (err == nil) != c.ok {
			t.Errorf("%s: err %v, want ok %v", c.name, err, c.ok)
			continue
		}
		if c.ok && (string(st.comm) != c.comm || st.utime != c.utime || st.stime != c.stime ||
			st.startTime != c.start || st.cpuTicks() != c.utime+c.stime || st.state != c.state) {
			t.Errorf("%s: got comm %q state %c utime %d stime %d start %d", c.name, st.comm, st.state, st.utime, st.stime, st.startTime)
		}
	}
}

func TestParseTaskIO(t *testing.T) {
	cases := []struct {
		name, in    string
		read, write uint64
	}{
		{"full", "rchar: 9\nwchar: 8\nsyscr: 1\nsyscw: 1\nread_bytes: 1048576\nwrite_bytes: 4096\ncancelled_write_bytes: 0\n", 1 << 20, 4096},
		{"page-cache only", "rchar: 900\nwchar: 800\nread_bytes: 0\nwrite_bytes: 0\n", 0, 0},
		{"no trailing newline", "read_bytes: 5\nwrite_bytes: 6", 5, 6},
		{"empty", "", 0, 0},
	}
	for _, c := range cases {
		var got snapshot.TaskCounters
		parseTaskIO([]byte(c.in), &got)
		if got.ReadBytes != c.read || got.WriteBytes != c.write {
			t.Errorf("%s: read %d write %d, want %d %d", c.name, got.ReadBytes, got.WriteBytes, c.read, c.write)
		}
	}
}

func TestProcReaderTaskPath(t *testing.T) {
	var r procReader
	if got := r.taskPath("/proc", 30, 0, "stat"); got != "/proc/30/stat" {
		t.Errorf("process: %s", got)
	}
	if got := r.taskPath("/proc", 30, 4242, "io"); got != "/proc/30/task/4242/io" {
		t.Errorf("thread: %s", got)
	}
}
