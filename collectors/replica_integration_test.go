package collectors

import (
	"fmt"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

func TestLiveReplicaStatus(t *testing.T) {
	t.Parallel()
	primary := testdb.Start(t, "--server-id=1", "--log-bin=binlog")
	replica := testdb.Start(t, "--server-id=2")
	replica.Exec(t,
		fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=%d, MASTER_USER='root', MASTER_USE_GTID=no", primary.Port),
		"START SLAVE")
	primary.Exec(t, "CREATE DATABASE repl", "CREATE TABLE repl.t (i INT)", "INSERT INTO repl.t VALUES (1)")

	l := newLive(t, rootOptions(replica), testInterval, nil)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		s := next(t, l)
		if len(s.ReplicaChannels) != 1 {
			continue
		}
		r := s.ReplicaChannels[0]
		if r["Slave_SQL_Running"] != "Yes" || r["Slave_IO_Running"] != "Yes" {
			continue
		}
		if r["Master_Port"] != fmt.Sprint(primary.Port) || r["Seconds_Behind_Master"] == "" {
			t.Errorf("replica row %v", r)
		}
		if st := s.Collectors[snapshot.CollectorReplica]; st.Stale || st.Unavailable != "" {
			t.Errorf("state %+v", st)
		}
		if l.Capabilities().ReplicaStatement != "SHOW ALL REPLICAS STATUS" {
			t.Errorf("statement %q", l.Capabilities().ReplicaStatement)
		}
		return
	}
	t.Fatal("replication never showed as running")
}
