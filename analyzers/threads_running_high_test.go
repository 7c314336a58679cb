package analyzers

import (
	"fmt"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// pileOf puts n threads in state running the same SELECT.
func pileOf(n int, state string) edit {
	return pileFrom(300, n, state)
}

// pileFrom is pileOf with thread ids from first.
func pileFrom(first, n int, state string) edit {
	return func(_ int, s *snapshot.Snapshot) {
		for k := range n {
			s.Processlist = append(s.Processlist, query(int64(first+k), 2, state,
				fmt.Sprintf("SELECT * FROM items WHERE id = %d", k)))
		}
	}
}

// withProcesslist marks the snapshot as read by a processlist collector, so
// an empty list means nothing runs.
func withProcesslist(_ int, s *snapshot.Snapshot) {
	if s.Collectors == nil {
		s.Collectors = map[snapshot.CollectorName]snapshot.CollectorState{}
	}
	s.Collectors[snapshot.CollectorProcesslist] = snapshot.CollectorState{}
}

func onCPUs(n int) edit { return func(_ int, s *snapshot.Snapshot) { s.Host.NumCPU = n } }

func TestThreadsRunningHigh(t *testing.T) {
	running := func(n int) edit { return status("Threads_running", fmt.Sprint(n)) }
	flap := func(i int, s *snapshot.Snapshot) {
		s.Status["Threads_running"] = map[bool]string{true: "30", false: "5"}[i%3 != 2]
	}
	remote := func(_ int, s *snapshot.Snapshot) { s.Host = nil }
	rowWaiters := func(_ int, s *snapshot.Snapshot) {
		s.InnoDB = &snapshot.InnoDBStatus{}
		for k := range 20 {
			s.InnoDB.Transactions.Trx = append(s.InnoDB.Transactions.Trx,
				snapshot.InnoDBTrx{ThreadID: int64(500 + k), LockWait: true, LockWaitSeconds: 1})
		}
	}
	runTimelines(t, IDThreadsRunningHigh, DefaultConfig(), []timelineCase{
		// series' host has 4 CPUs: 2 per CPU is 8.
		{"9 executing on 4 CPUs for 5 s (pt-stalk's 5 x 1 s)", series(7, running(10)), "....WWW"},
		{"8 is 2 per CPU on 4 CPUs", series(7, running(9)), "......."},
		{"dips every third sample never raise", series(12, flap), "............"},
		{"not reported", series(2, func(_ int, s *snapshot.Snapshot) { delete(s.Status, "Threads_running") }), "NN"},
		// The routine-work review: 1,000 connections, 50 long polls, 98 % idle, 2 CPUs.
		{"50 long polls in SELECT SLEEP are not executing", series(7, running(52), onCPUs(2), withProcesslist,
			pileOf(50, "User sleep"), pileFrom(400, 1, "Sending data"),
			status("Threads_connected", "1000")), "......."},
		{"lock queues are the lock rules'", series(7, running(60), onCPUs(2), withProcesslist,
			pileOf(30, "Waiting for table metadata lock"), pileFrom(400, 9, "Waiting for query cache lock"),
			pileFrom(500, 20, "Updating"), rowWaiters), "......."},
		// A capture with the status every second and InnoDB's status at its
		// ends only: the waits the status counts are not executing.
		{"row-lock waits known from the status alone", series(7, running(61), onCPUs(2), withProcesslist,
			pileFrom(500, 59, "Updating"), pileFrom(600, 1, "Sending data"),
			status("Innodb_row_lock_current_waits", "59")), "......."},
		{"more executing than the status's row-lock waits", series(7, running(61), onCPUs(2), withProcesslist,
			pileFrom(500, 59, "Updating"), pileFrom(600, 1, "Sending data"),
			status("Innodb_row_lock_current_waits", "50")), "....WWW"},
		{"remote server: pt-stalk's 25", series(7, running(27), remote), "....WWW"},
		{"remote server: 25 is not above 25", series(7, running(26), remote), "......."},
		// A capture whose vmstat gave no CPU count: no guess at 25.
		{"host figures without a CPU count", series(3, running(60), onCPUs(0)), "NNN"},
		{"an empty processlist means nothing executes", series(7, running(30), withProcesslist), "......."},
	})
	snaps := series(5, running(46), onCPUs(16), withProcesslist, pileFrom(100, 5, "Waiting for query cache lock"),
		pileOf(40, "Sending data"), cpuLoad(16, 6, 70))
	f := lastFinding(t, DefaultConfig(), snaps, IDThreadsRunningHigh)
	mustContain(t, f, "40 threads executing on 16 CPUs", "warn above 32 (2 per CPU on 16 CPUs)",
		"not counted: 5 queued behind", "states: sending data 40", "run queue 6 on 16 CPUs",
		"40 × select * from items where id = ?")
}
