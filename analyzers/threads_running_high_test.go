package analyzers

import (
	"fmt"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// pileOf puts n threads in state running the same SELECT.
func pileOf(n int, state string) edit {
	return func(_ int, s *snapshot.Snapshot) {
		for k := range n {
			s.Processlist = append(s.Processlist, query(int64(300+k), 2, state,
				fmt.Sprintf("SELECT * FROM items WHERE id = %d", k)))
		}
	}
}

func TestThreadsRunningHigh(t *testing.T) {
	running := func(n int) edit { return status("Threads_running", fmt.Sprint(n)) }
	flap := func(i int, s *snapshot.Snapshot) {
		s.Status["Threads_running"] = map[bool]string{true: "30", false: "20"}[i%3 != 2]
	}
	runTimelines(t, IDThreadsRunningHigh, DefaultConfig(), []timelineCase{
		{"40 running for 5 samples (pt-stalk)", series(7, running(40)), "....WWW"},
		{"26 is 25 plus the monitor", series(6, running(26)), "......"},
		{"dips every third sample never raise", series(12, flap), "............"},
		{"not reported", series(2, func(_ int, s *snapshot.Snapshot) { delete(s.Status, "Threads_running") }), "NN"},
	})
	snaps := series(5, running(41), pileOf(30, "Waiting for query cache lock"), pileOf(8, "Sending data"),
		cpuLoad(16, 6, 70))
	f := lastFinding(t, DefaultConfig(), snaps, IDThreadsRunningHigh)
	mustContain(t, f, "40 threads running on 16 CPUs", "states: waiting for query cache lock 30, sending data 8",
		"run queue 6 on 16 CPUs", "38 × select * from items where id = ?")
}
