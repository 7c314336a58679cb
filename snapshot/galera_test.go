package snapshot

import (
	"testing"
	"time"
)

func galeraStatus(kv ...string) map[string]string {
	m := map[string]string{"wsrep_cluster_size": "3", "wsrep_cluster_status": "Primary", "wsrep_local_state": "4",
		"wsrep_local_state_comment": "Synced", "wsrep_ready": "ON", "wsrep_connected": "ON",
		"wsrep_provider_name": "Galera", "wsrep_flow_control_paused_ns": "0", "wsrep_flow_control_sent": "0",
		"wsrep_flow_control_recv": "0", "Uptime": "100"}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func TestGaleraDecode(t *testing.T) {
	s := &Snapshot{Status: galeraStatus("wsrep_local_recv_queue", "12"), Variables: map[string]string{
		"wsrep_on": "ON", "wsrep_provider": "/usr/lib/galera/libgalera_smm.so", "wsrep_node_name": "node3",
		"wsrep_provider_options": "evs.version = 1; gcs.fc_factor = 1.0; gcs.fc_limit = 16; gcs.fc_master_slave = no"}}
	g, ok := s.Galera()
	if !ok || !g.Synced() || g.ClusterSize != 3 || g.RecvQueue != 12 || g.FCLimit != 16 || g.Label() != "node node3" {
		t.Errorf("%+v %v", g, ok)
	}
	// MariaDB prints wsrep status with wsrep off too: a Disconnected, not-ready "cluster".
	plain := &Snapshot{Status: galeraStatus("wsrep_cluster_status", "Disconnected", "wsrep_ready", "OFF",
		"wsrep_provider_name", ""), Variables: map[string]string{"wsrep_on": "OFF", "wsrep_provider": "none"}}
	if _, ok := plain.Galera(); ok {
		t.Error("a server with wsrep off reads as a Galera node")
	}
	capture := &Snapshot{Status: galeraStatus()}
	if _, ok := capture.Galera(); !ok {
		t.Error("a capture without variables but with a provider is not read")
	}
}

func TestGaleraRatesPerInterval(t *testing.T) {
	t0 := time.Unix(1000, 0)
	prev := &Snapshot{Time: t0, Status: galeraStatus("wsrep_flow_control_paused_ns", "1000000000",
		"wsrep_flow_control_sent", "4", "wsrep_local_recv_queue", "40")}
	cur := &Snapshot{Time: t0.Add(2 * time.Second), Status: galeraStatus("wsrep_flow_control_paused_ns", "2500000000",
		"wsrep_flow_control_sent", "10", "wsrep_local_recv_queue", "3", "Uptime", "102")}
	r := Delta(prev, cur)
	if r.Reset {
		t.Fatal("a shrinking receive queue reads as FLUSH STATUS")
	}
	g, ok := r.Galera()
	if !ok || g.PausedFraction != 0.75 || g.Sent != 6 || g.Received != 0 {
		t.Errorf("%+v %v", g, ok)
	}
}
