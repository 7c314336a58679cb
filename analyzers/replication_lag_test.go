package analyzers

import (
	"fmt"
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
		{"SQL thread stopped", series(3, replica("Slave_SQL_Running", "No", "Seconds_Behind_Master", "",
			"Last_SQL_Error", "Duplicate entry '7' for key 'PRIMARY'")), "..C"},
		{"not a replica", series(2), "NN"},
	})
	f := lastFinding(t, DefaultConfig(), series(3, replica("Slave_SQL_Running", "No",
		"Last_SQL_Error", "Duplicate entry")), IDReplicationLag)
	mustContain(t, f, "replication stopped: SQL_Running=No", "Last_SQL_Error: Duplicate entry")
	f = lastFinding(t, DefaultConfig(), series(3, lag(45)), IDReplicationLag)
	mustContain(t, f, "replica 45 s behind its source", "Master_Host: db0")
}
