package analyzers

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// mysqldUses sets the mysqld process's CPU time to share % of the busy time
// cpuLoad(_, _, idle) makes (100-idle s a sample).
func mysqldUses(share, idlePct float64) edit {
	return func(i int, s *snapshot.Snapshot) {
		hostOf(s).Mysqld = &snapshot.ProcessCPU{PID: 42, UserSeconds: share / 100 * (100 - idlePct) * float64(i)}
	}
}

func TestCPUSaturation(t *testing.T) {
	busy := cpuLoad(4, 9, 5)
	// The rule's own persistence is 10 s (HOST-02): ruleLogic shows the raw verdicts.
	runTimelines(t, IDCPUSaturation, ruleLogic(IDCPUSaturation), []timelineCase{
		{"run queue over CPUs, no idle", series(5, busy), "...WW"},
		{"run queue with idle CPUs is serialisation, not this", series(5, cpuLoad(16, 8, 70)), "....."},
		{"busy but no queue", series(5, cpuLoad(4, 3, 2)), "....."},
		{"unknown CPU count", series(5, cpuLoad(0, 9, 5)), "NNNNN"},
		{"remote server", series(2, remote), "NN"},
		{"mysqld uses most of the busy CPU", series(5, busy, mysqldUses(90, 5)), "...WW"},
		// A shared host: other services keep the CPUs busy, a healthy
		// mysqld uses a few percent. About the host, not the database.
		{"other processes saturate a shared host", series(5, busy, mysqldUses(8, 5)), "...ii"},
		{"mysqld at the share limit is the user", series(5, busy, mysqldUses(50, 5)), "...WW"},
		{"mysqld just under the share limit", series(5, busy, mysqldUses(45, 5)), "...ii"},
	})
	f := lastFinding(t, ruleLogic(IDCPUSaturation), series(4, busy, status("Threads_running", "30")), IDCPUSaturation)
	mustContain(t, f, "CPU saturated: run queue 9 on 4 CPUs, 5 % idle", "Threads_running 30")
	// The kernel's stall clock, where the source reads it, says how much
	// work waited: 0.7 s of every second some task waited for a CPU.
	stalled := func(i int, s *snapshot.Snapshot) {
		s.Pressure = &snapshot.Pressure{CPU: snapshot.Stall{SomeUS: uint64(i) * 700000}}
	}
	f = lastFinding(t, ruleLogic(IDCPUSaturation), series(4, busy, stalled), IDCPUSaturation)
	mustContain(t, f, "pressure stall: some task waited for a CPU 70 % of the last 1.0 s, all of them 0 %")

	// With the default persistence, a healthy mysqld on a busy shared host
	// raises nothing above info, and the finding blames no statement.
	snaps := series(20, busy, mysqldUses(8, 5), status("Threads_running", "3"))
	if got := timeline(t, DefaultConfig(), snaps, IDCPUSaturation); got != "...iiiiiiiiiiiiiiiii" {
		t.Errorf("shared host with the default config: %s", got)
	}
	f = lastFinding(t, DefaultConfig(), snaps, IDCPUSaturation)
	if f.Severity != snapshot.Info || len(f.Threads) != 0 {
		t.Errorf("severity %v, threads %v", f.Severity, f.Threads)
	}
	mustContain(t, f, "CPU saturated by other processes, not mysqld: run queue 9 on 4 CPUs",
		"mysqld (pid 42) uses only 8 % of the busy CPU time", "Threads_running 3 on 4 CPUs", "top, pidstat")

	// With the busiest processes read by the host collector, they are named.
	busiest := func(_ int, s *snapshot.Snapshot) {
		hostOf(s).Busiest = []snapshot.ProcessUse{{PID: 812, Name: "postgres", CPUs: 2.1}, {PID: 77, Name: "redis-server", CPUs: 0.4}}
	}
	snaps = series(20, busy, mysqldUses(8, 5), busiest)
	f = lastFinding(t, DefaultConfig(), snaps, IDCPUSaturation)
	mustContain(t, f, "not mysqld: run queue 9 on 4 CPUs, 5 % idle; busiest: postgres (2.1 CPUs)",
		"busiest other processes: postgres (pid 812) 2.1 CPUs, redis-server (pid 77) 0.4 CPUs")
	// A recording carries them: the replay names the same processes.
	sameInReplay(t, frames(snaps), DefaultConfig(), &f)
}
