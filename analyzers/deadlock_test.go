package analyzers

import (
	"os"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// deadlockAt stores the MariaDB sample's LATEST DETECTED DEADLOCK section,
// the monitor printing at clock and the deadlock at when.
func deadlockAt(t *testing.T, when time.Time, clock func(i int) time.Time) edit {
	raw, err := os.ReadFile("../snapshot/parse/testdata/innodb-status/mariadb-10.11-lockwait-deadlock.txt")
	if err != nil {
		t.Fatal(err)
	}
	st, err := parse.ParseInnoDBStatus(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	return func(i int, s *snapshot.Snapshot) {
		s.InnoDB = &snapshot.InnoDBStatus{LatestDeadlock: st.LatestDeadlock, LatestDeadlockTime: when, Time: clock(i)}
	}
}

func TestDeadlock(t *testing.T) {
	clock := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Second) }
	// A new deadlock every sample, as the InnoDB status shows them without
	// Innodb_deadlocks (MySQL): the storm is counted from the distinct ones.
	everySample := func(i int, s *snapshot.Snapshot) {
		deadlockAt(t, t0.Add(time.Duration(i)*time.Second-500*time.Millisecond), clock)(i, s)
	}
	runTimelines(t, IDDeadlock, DefaultConfig(), []timelineCase{
		// The routine-work review: one deadlock now and then is routine: an info, short-lived.
		{"a new deadlock is an info standing 30 s", series(4, deadlockAt(t, t0.Add(-2*time.Second), clock)), "iiii"},
		{"last week's deadlock", series(3, deadlockAt(t, t0.Add(-7*24*time.Hour), clock)), "..."},
		{"it happens while watched", series(6, during(0, 3, emptyTrxList),
			during(3, 6, deadlockAt(t, t0.Add(3*time.Second), clock))), "...iii"},
		{"older than DeadlockRecent clears", series(3, deadlockAt(t, t0.Add(-29*time.Second), clock)), "ii."},
		{"a storm: 5 in a minute by Innodb_deadlocks", series(8, deadlockAt(t, t0.Add(-2*time.Second), clock),
			counter("Innodb_deadlocks", 40, 1)), "iiiiiWWW"},
		{"30 in a minute is critical", series(5, deadlockAt(t, t0.Add(-2*time.Second), clock),
			counter("Innodb_deadlocks", 40, 10)), "iWWCC"},
		{"3 an hour is routine", series(8, deadlockAt(t, t0.Add(-2*time.Second), clock),
			status("Innodb_deadlocks", "3")), "iiiiiiii"},
		{"a storm seen in the InnoDB status alone", series(7, everySample), "iiiiWWW"},
		{"no InnoDB status", series(2), "NN"},
	})
	storm := lastFinding(t, DefaultConfig(), series(8, deadlockAt(t, t0.Add(-2*time.Second), clock),
		counter("Innodb_deadlocks", 40, 1)), IDDeadlock)
	mustContain(t, storm, "deadlock storm: 7 deadlocks in 7.0 s; the latest: deadlock at 09:59:58",
		"7 deadlocks in the last 7.0 s (Innodb_deadlocks)", "lock them in the same order", "innodb_print_all_deadlocks")
	f := lastFinding(t, DefaultConfig(), series(2, deadlockAt(t, t0.Add(-2*time.Second), clock),
		counter("Innodb_deadlocks", 3, 1)), IDDeadlock)
	mustContain(t, f, "deadlock at 09:59:58 between thread 8 and thread 7; thread 8's transaction was rolled back",
		"deadlock at 2026-12-01 09:59:58 (server clock), 3.0 s before this sample",
		"(1) trx 26, thread 8 root@localhost, active 2 s, ROLLED BACK: update t.a set v=? where id=?",
		"waits for index PRIMARY of table `t`.`a`, lock_mode X locks rec but not gap waiting",
		"(2) trx 25, thread 7", "holds index PRIMARY of table `t`.`a`", "Innodb_deadlocks 1.0/s", "retry")
	if len(f.Threads) != 2 {
		t.Errorf("threads %v", f.Threads)
	}
}

// Without the monitor's clock the text itself must change since the
// previous sample.
func TestDeadlockWithoutClock(t *testing.T) {
	noClock := func(int) time.Time { return time.Time{} }
	runTimelines(t, IDDeadlock, DefaultConfig(), []timelineCase{
		{"unchanged text", series(3, deadlockAt(t, time.Time{}, noClock)), "..."},
		{"appears", series(4, during(0, 2, emptyTrxList), during(2, 4, deadlockAt(t, time.Time{}, noClock))), "..i."},
	})
}
