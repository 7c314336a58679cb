package analyzers

import "testing"

func TestCPUSaturation(t *testing.T) {
	runTimelines(t, IDCPUSaturation, DefaultConfig(), []timelineCase{
		{"run queue over CPUs, no idle", series(5, cpuLoad(4, 9, 5)), "...WW"},
		{"run queue with idle CPUs is serialisation, not this", series(5, cpuLoad(16, 8, 70)), "....."},
		{"busy but no queue", series(5, cpuLoad(4, 3, 2)), "....."},
		{"unknown CPU count", series(5, cpuLoad(0, 9, 5)), "....."},
		{"remote server", series(2, remote), "NN"},
	})
	f := lastFinding(t, DefaultConfig(), series(4, cpuLoad(4, 9, 5), status("Threads_running", "30")), IDCPUSaturation)
	mustContain(t, f, "CPU saturated: run queue 9 on 4 CPUs, 5 % idle", "Threads_running 30")
}
