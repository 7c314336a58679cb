package analyzers

import (
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// threadUse is one connection's steady use of the host, per second.
type threadUse struct {
	conn     int64
	cpuPct   uint64 // percent of a core
	readBps  uint64
	writeBps uint64
}

// threadsUsing makes mysqld's /proc counters grow by the given uses per
// second, plus 10 % of a core in purge.
func threadsUsing(uses ...threadUse) edit {
	return func(i int, s *snapshot.Snapshot) {
		n := uint64(i)
		th := &snapshot.Threads{PID: 42, ClockTicks: 100}
		var total snapshot.TaskCounters
		for _, u := range uses {
			c := snapshot.TaskCounters{TID: 1000 + u.conn, Conn: u.conn, CPUTicks: u.cpuPct * n,
				ReadBytes: u.readBps * n, WriteBytes: u.writeBps * n}
			th.Tasks = append(th.Tasks, c)
			total.CPUTicks += c.CPUTicks
			total.ReadBytes += c.ReadBytes
			total.WriteBytes += c.WriteBytes
		}
		th.Tasks = append(th.Tasks, snapshot.TaskCounters{TID: 7, Name: "purge", CPUTicks: 10 * n})
		total.CPUTicks += 10 * n
		th.Process = total
		s.Threads = th
	}
}

func TestCPUSaturationNamesTheBurners(t *testing.T) {
	snaps := series(5, cpuLoad(2, 6, 2), procs(query(11, 30, "Sending data", "SELECT BENCHMARK(1e9, MD5('a'))"),
		query(12, 30, "Sending data", "SELECT BENCHMARK(1e9, MD5('b'))"), query(13, 2, "Sending data", "SELECT 1"),
		sleeping(14, "app")),
		threadsUsing(threadUse{11, 97, 0, 0}, threadUse{12, 88, 0, 0}, threadUse{13, 4, 0, 0}, threadUse{14, 0, 0, 0}))
	f := lastFinding(t, ruleLogic(IDCPUSaturation, IDDiskSaturation), snaps, IDCPUSaturation)
	mustContain(t, f, "mysqld uses 199 % of a core, its connections 189 %; the busiest:",
		"97 % CPU: thread 11 app@10.0.0.12 db shop", "88 % CPU: thread 12")
	if len(f.Threads) != 2 || f.Threads[0] != 11 || f.Threads[1] != 12 {
		t.Errorf("Threads %v, want the two burners", f.Threads)
	}
	if strings.Contains(strings.Join(f.Evidence, "\n"), "CPU: thread 13") {
		t.Errorf("a connection under the threshold is named: %q", f.Evidence)
	}
}

func TestDiskSaturationNamesTheReaders(t *testing.T) {
	snaps := series(5, disk("sda", 95, 40, 400), procs(query(21, 30, "Sending data", "SELECT COUNT(*) FROM big"),
		query(22, 30, "Sending data", "SELECT 1")),
		threadsUsing(threadUse{21, 30, 80 << 20, 0}, threadUse{22, 50, 0, 2 << 20}))
	f := lastFinding(t, ruleLogic(IDCPUSaturation, IDDiskSaturation), snaps, IDDiskSaturation)
	mustContain(t, f, "the busiest connections:", "reads 80M/s, writes 0/s: thread 21", "reads 0/s, writes 2M/s: thread 22")
	if len(f.Threads) != 2 || f.Threads[0] != 21 {
		t.Errorf("Threads %v", f.Threads)
	}
}

// TestTopConnectionsQuiet: without per-thread figures (imported captures,
// a remote server) or with an idle server, nobody is named.
func TestTopConnectionsQuiet(t *testing.T) {
	for name, snaps := range map[string][]*snapshot.Snapshot{
		"no figures": series(5, cpuLoad(2, 6, 2)),
		"idle":       series(5, cpuLoad(2, 6, 2), threadsUsing(threadUse{11, 2, 0, 0})),
	} {
		f := lastFinding(t, ruleLogic(IDCPUSaturation, IDDiskSaturation), snaps, IDCPUSaturation)
		if len(f.Threads) != 0 || strings.Contains(strings.Join(f.Evidence, "\n"), "busiest") {
			t.Errorf("%s: %+v", name, f)
		}
	}
}
