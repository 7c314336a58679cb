package analyzers

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// replica sets SHOW SLAVE STATUS fields ("name", "value", ...) with both threads running.
func replica(kv ...string) edit {
	return func(_ int, s *snapshot.Snapshot) {
		s.Replica = map[string]string{"Slave_IO_Running": "Yes", "Slave_SQL_Running": "Yes", "SQL_Delay": "0",
			"Master_Host": "db0"}
		for i := 0; i+1 < len(kv); i += 2 {
			s.Replica[kv[i]] = kv[i+1]
		}
	}
}

// channel adds one row of SHOW ALL REPLICAS STATUS, both threads running;
// kv may be a func of the snapshot's index through channelAt.
func channel(name string, kv ...string) edit {
	return channelAt(name, func(int) []string { return kv })
}

func channelAt(name string, kv func(i int) []string) edit {
	return func(i int, s *snapshot.Snapshot) {
		r := map[string]string{"Connection_name": name, "Slave_IO_Running": "Yes", "Slave_SQL_Running": "Yes",
			"SQL_Delay": "0", "Master_Host": "src-" + name, "Master_Port": "3306", "Seconds_Behind_Master": "0",
			"Slave_SQL_Running_State": "Slave has read all relay log; waiting for more updates"}
		pairs := kv(i)
		for j := 0; j+1 < len(pairs); j += 2 {
			r[pairs[j]] = pairs[j+1]
		}
		s.ReplicaChannels = append(s.ReplicaChannels, r)
	}
}

func TestReplicationLag(t *testing.T) {
	lag := func(secs int) edit { return replica("Seconds_Behind_Master", fmt.Sprint(secs)) }
	runTimelines(t, IDReplicationLag, DefaultConfig(), []timelineCase{
		{"45 s behind", series(4, lag(45)), "..WW"},
		{"10 minutes behind is critical", series(3, lag(600)), "..C"},
		{"in sync", series(3, lag(0)), "..."},
		{"delayed on purpose", series(3, replica("Seconds_Behind_Master", "3620", "SQL_Delay", "3600")), "..."},
		{"MySQL 8.0.22+ names", series(3, func(_ int, s *snapshot.Snapshot) {
			s.Replica = map[string]string{"Replica_IO_Running": "Yes", "Replica_SQL_Running": "Yes",
				"Seconds_Behind_Source": "90"}
		}), "..W"},
		{"a stopped SQL thread is replication_stopped's", series(3, replica("Slave_SQL_Running", "No",
			"Seconds_Behind_Master", "")), "..."},
		{"one of two channels behind", series(3, channel("a"), channel("b", "Seconds_Behind_Master", "120")), "..W"},
		{"two channels in sync", series(3, channel("a"), channel("b")), "..."},
		{"not a replica", series(2), "NN"},
		{"collector failed this tick", series(2, func(_ int, s *snapshot.Snapshot) {
			s.Collectors = map[snapshot.CollectorName]snapshot.CollectorState{snapshot.CollectorReplica: {Stale: true, Error: "timed out"}}
		}), ".."},
	})
	f := lastFinding(t, DefaultConfig(), series(3, lag(45)), IDReplicationLag)
	mustContain(t, f, "default channel 45 s behind its source", "from db0")
}

func TestReplicationLagNamesTheChannelAndItsStatement(t *testing.T) {
	growing := channelAt("b", func(i int) []string {
		return []string{"Seconds_Behind_Master", fmt.Sprint(40 + i), "Slave_SQL_Running_State", "Update",
			"Gtid_Slave_Pos", "0-2-17", "Gtid_IO_Pos", "0-2-90"}
	})
	applier := func(i int, s *snapshot.Snapshot) {
		s.Processlist = []snapshot.Process{
			{ID: 7, User: "system user", Command: "Slave_SQL", State: "Slave has read all relay log; waiting for more updates", Info: "", TimeMS: 0},
			{ID: 9, User: "system user", Command: "Slave_SQL", State: "Update", TimeMS: int64(40+i) * 1000,
				Info: "UPDATE shop.orders SET total = 12 WHERE id = 5"},
		}
	}
	f := lastFinding(t, DefaultConfig(), series(12, channel("a"), growing, applier), IDReplicationLag)
	mustContain(t, f, "channel 'b' 51 s behind its source, growing (+", "from src-b:3306",
		"SQL thread 9 (Update) applies: UPDATE shop.orders SET total = 12 WHERE id = 5", "applied 0-2-17, fetched 0-2-90")
	if len(f.Threads) != 1 || f.Threads[0] != 9 {
		t.Errorf("threads %v, want the applier 9", f.Threads)
	}
	for _, e := range f.Evidence {
		if strings.Contains(e, "channel 'a'") {
			t.Errorf("a channel in sync is named: %q", e)
		}
	}
	if f.Severity != snapshot.Warning {
		t.Errorf("a lag growing with the SQL thread running is %v", f.Severity)
	}
	catching := channelAt("b", func(i int) []string { return []string{"Seconds_Behind_Master", fmt.Sprint(200 - 5*i)} })
	f = lastFinding(t, DefaultConfig(), series(12, catching), IDReplicationLag)
	mustContain(t, f, "channel 'b' catching up: 145 s behind, shrinking at 5.0 s/s, ETA 29 s",
		"catching up at 5.0 s/s over the last 11 s", "Nothing to do while it catches up")
	if f.Severity != snapshot.Info {
		t.Errorf("catching up within a minute is %v", f.Severity)
	}
}

// pausedReplica is the default channel in sync until stop, its SQL thread
// stopped (STOP SLAVE SQL_THREAD: Seconds_Behind NULL) until resume, then
// behind by lagAt(seconds since the resume).
func pausedReplica(stop, resume int, lagAt func(since int) int) edit {
	return func(i int, s *snapshot.Snapshot) {
		switch {
		case i < stop:
			replica("Seconds_Behind_Master", "0")(i, s)
		case i < resume:
			replica("Slave_SQL_Running", "No", "Seconds_Behind_Master", "")(i, s)
		default:
			replica("Seconds_Behind_Master", fmt.Sprint(lagAt(i-resume)))(i, s)
		}
	}
}

// The routine-work review: a replica paused and resumed catches up; while it does at a rate
// that ends the lag within ReplicaCatchUpETA it is routine (info), and a lag
// that holds or grows with the SQL thread running is still an incident.
func TestReplicationLagCatchingUp(t *testing.T) {
	shrink := func(from, perSec int) func(int) int {
		return func(since int) int { return max(from-perSec*since, 0) }
	}
	// 5 s in sync, 45 s paused, then 45 s behind shed at 3 s/s.
	resumed := series(70, pausedReplica(5, 50, shrink(45, 3)))
	// A longer pause: 90 s behind, shed at 2 s/s.
	long := series(140, pausedReplica(5, 95, shrink(90, 2)))
	slow := func(i int) edit { return replica("Seconds_Behind_Master", fmt.Sprint(200-i/2)) }
	runTimelines(t, IDReplicationLag, DefaultConfig(), []timelineCase{
		// Quiet while stopped (replication_stopped's), info from the
		// resume until the lag is under ReplicaLagWarn, then quiet after
		// the clear.
		// Behind 45..33 s for 5 frames: raised after 3 s, cleared 5 s after.
		{"paused and resumed, catching up at 3 s/s", resumed,
			strings.Repeat(".", 52) + strings.Repeat("i", 7) + strings.Repeat(".", 11)},
		{"paused 90 s, catching up at 2 s/s", long,
			strings.Repeat(".", 97) + strings.Repeat("i", 32) + strings.Repeat(".", 11)},
		// The resume explains the lag only while it does not grow past the
		// lag the resume found by more than resumeJitter.
		{"resumed, but the lag grows with the SQL thread running", series(20, pausedReplica(2, 6,
			func(since int) int { return 40 + since })), "........iWWWWWWWWWWW"},
		// The full suite's trace: the lag ticks up while the SQL thread
		// starts on a loaded host, holds, then falls: routine throughout.
		{"resumed, the lag ticks up as the SQL thread starts", series(26, pausedReplica(2, 6, func(since int) int {
			return []int{55, 56, 56, 56, 51, 47, 42, 37, 31, 26, 19, 12, 7, 5, 1, 0, 0, 0, 0, 0}[since]
		})), "........" + strings.Repeat("i", 11) + strings.Repeat(".", 7)},
		// Resumed, held at the same lag: a SQL thread ramping up on a
		// starved host (the full suite: 57 s held for 11 s, then falling) is
		// routine for ReplicaResumeGrace; past it, holding is no catch-up.
		{"resumed, lag holds", series(45, pausedReplica(2, 6, func(int) int { return 40 })),
			"........" + strings.Repeat("i", 28) + strings.Repeat("W", 9)},
		// No resume seen: the fall must be measured over 10 s first.
		{"catching up, no resume seen", series(20, channelAt("", func(i int) []string {
			return []string{"Seconds_Behind_Master", fmt.Sprint(120 - 5*i)}
		})), "..WWWWWWWWiiiiiiiiii"},
		// A starved replica's SQL thread ramps up after the resume: 0.3 s/s
		// for 12 s (an ETA past 2 minutes), then 3 s/s: a catch-up.
		{"resumed, slow at first, then catching up", series(45, pausedReplica(2, 6, func(since int) int {
			if since < 12 {
				return 45 - since*3/10
			}
			return max(42-3*(since-12), 0)
		})), "........" + strings.Repeat("i", 18) + strings.Repeat(".", 19)},
		// Falling at 0.3 s/s for good: routine for ReplicaResumeGrace, then
		// the ETA (over 2 minutes) decides.
		{"resumed, too slow past the grace", series(45, pausedReplica(2, 6, func(since int) int {
			return 60 - since*3/10
		})), "........" + strings.Repeat("i", 28) + strings.Repeat("W", 9)},
		// Falling at 0.5 s/s from 200 s: 6 minutes to go, past the 2 minutes
		// MX gives.
		{"catching up too slowly", series(20, func(i int, s *snapshot.Snapshot) { slow(i)(i, s) }),
			"..WWWWWWWWWWWWWWWWWW"},
	})
	// The finding a DBA reads while it catches up.
	f := lastFinding(t, DefaultConfig(), long[:111], IDReplicationLag)
	mustContain(t, f, "default channel catching up: 60 s behind, shrinking at 2.0 s/s, ETA 30 s",
		"catching up at 2.0 s/s over the last 15 s, ETA 30 s (SQL thread resumed 15 s ago)")
	held := series(20, pausedReplica(2, 6, func(int) int { return 40 }))
	f = lastFinding(t, DefaultConfig(), held, IDReplicationLag)
	mustContain(t, f, "default channel resumed 13 s ago after a pause: 40 s behind, none shed yet",
		"40 s behind, none shed in the 13 s measured since the resume: a warning if none is shed within 30 s of it")
	f = lastFinding(t, DefaultConfig(), resumed[:54], IDReplicationLag)
	mustContain(t, f, "default channel catching up after a pause: 36 s behind, its SQL thread resumed 3.0 s ago")
	if f.Severity != snapshot.Info {
		t.Errorf("just resumed: %v", f.Severity)
	}
}
