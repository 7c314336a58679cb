package ui

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

func replicaFrame() *snapshot.Frame {
	f := incidentFrame()
	s := *f.Snapshot
	s.ReplicaChannels = []map[string]string{
		{"Connection_name": "a", "Master_Host": "10.0.0.1", "Master_Port": "3306", "Slave_IO_Running": "Yes",
			"Slave_SQL_Running": "Yes", "Seconds_Behind_Master": "75", "SQL_Delay": "0", "Relay_Log_Space": "2097152",
			"Slave_SQL_Running_State": "Update", "Gtid_Slave_Pos": "0-1-40", "Gtid_IO_Pos": "0-1-90",
			"Applier_Workers": "4", "Applier_Workers_Running": "3", "Applying_Transaction": "0-1-41"},
		{"Connection_name": "b", "Master_Host": "10.0.0.2", "Master_Port": "3306", "Slave_IO_Running": "Yes",
			"Slave_SQL_Running": "No", "Seconds_Behind_Master": "", "Last_SQL_Errno": "1062",
			"Last_SQL_Error": "Duplicate entry '5' for key 'PRIMARY'"},
	}
	g := *f
	g.Snapshot = &s
	return &g
}

func TestReplicationViewAndHeader(t *testing.T) {
	d := New(Options{})
	d.Update(replicaFrame())
	mustContain(t, screenOf(d, 160, 40), "repl 2 ch lag 75s 1 stopped")
	press(d, 'M')
	s := screenOf(d, 160, 40)
	mustContain(t, s, "Replication", "10.0.0.1:3306", "75 s", "2.0M", "GTID applied 0-1-40  fetched 0-1-90",
		"SQL error 1062: Duplicate entry '5' for key 'PRIMARY'", "SQL: Update", "applier workers 3 of 4 running", "applying 0-1-41")
	mustNotContain(t, s, "Processlist")
	press(d, 'M')
	mustContain(t, screenOf(d, 160, 40), "Processlist")
	d.Update(incidentFrame())
	press(d, 'M')
	mustContain(t, screenOf(d, 160, 40), "not a replica")
}

func TestGaleraViewAndHeader(t *testing.T) {
	mk := func(at time.Time, paused, sent string) *snapshot.Snapshot {
		s := *incidentFrame().Snapshot
		s.Time = at
		s.Status = map[string]string{"Uptime": "500", "wsrep_provider_name": "Galera", "wsrep_cluster_size": "3",
			"wsrep_cluster_status": "Primary", "wsrep_local_state": "4", "wsrep_local_state_comment": "Synced",
			"wsrep_ready": "ON", "wsrep_connected": "ON", "wsrep_flow_control_paused_ns": paused,
			"wsrep_flow_control_sent": sent, "wsrep_flow_control_recv": sent, "wsrep_local_recv_queue": "14",
			"wsrep_cluster_conf_id": "7"}
		s.Variables = map[string]string{"wsrep_on": "ON", "wsrep_node_name": "node3", "wsrep_cluster_name": "prod",
			"wsrep_provider_options": "gcs.fc_limit = 16; gcs.fc_factor = 1.0"}
		return &s
	}
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	prev, cur := mk(t0, "0", "0"), mk(t0.Add(time.Second), "400000000", "3")
	d := New(Options{})
	d.Update(&snapshot.Frame{Snapshot: cur, Rates: snapshot.Delta(prev, cur)})
	mustContain(t, screenOf(d, 160, 40), "galera Synced 3 nodes FC 40%")
	press(d, 'G')
	mustContain(t, screenOf(d, 160, 40), "node node3 of cluster prod: Synced (4)", "cluster size 3  conf id 7",
		"paused 40% of the interval  sent 3  received 3", "receive 14", "gcs.fc_limit 16")
}
