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
	catching := channelAt("b", func(i int) []string { return []string{"Seconds_Behind_Master", fmt.Sprint(200 - 5*i)} })
	f = lastFinding(t, DefaultConfig(), series(12, catching), IDReplicationLag)
	mustContain(t, f, "catching up (-")
}
