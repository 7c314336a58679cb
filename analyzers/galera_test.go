package analyzers

import (
	"fmt"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// galera makes snapshot i a Synced member of a 3-node cluster; kv
// overrides status values, kvAt per snapshot.
func galera(kv ...string) edit { return galeraAt(func(int) []string { return kv }) }

func galeraAt(kv func(i int) []string) edit {
	return func(i int, s *snapshot.Snapshot) {
		for k, v := range map[string]string{"wsrep_provider_name": "Galera", "wsrep_cluster_size": "3",
			"wsrep_cluster_status": "Primary", "wsrep_local_state": "4", "wsrep_local_state_comment": "Synced",
			"wsrep_ready": "ON", "wsrep_connected": "ON", "wsrep_cluster_conf_id": "5",
			"wsrep_flow_control_paused_ns": "0", "wsrep_flow_control_sent": "0", "wsrep_flow_control_recv": "0",
			"wsrep_local_recv_queue": "0", "wsrep_local_send_queue": "0"} {
			s.Status[k] = v
		}
		pairs := kv(i)
		for j := 0; j+1 < len(pairs); j += 2 {
			s.Status[pairs[j]] = pairs[j+1]
		}
		s.Variables["wsrep_on"] = "ON"
		s.Variables["wsrep_node_name"] = "node3"
		s.Variables["wsrep_provider_options"] = "gcs.fc_limit = 16; gcs.fc_factor = 1.0"
	}
}

// pausedEach is flow control pausing share of every 1-s interval, with
// sent/recv messages a second.
func pausedEach(share float64, sent, recv int) edit {
	return galeraAt(func(i int) []string {
		return []string{"wsrep_flow_control_paused_ns", fmt.Sprint(int64(float64(i) * share * 1e9)),
			"wsrep_flow_control_sent", fmt.Sprint(i * sent), "wsrep_flow_control_recv", fmt.Sprint(i * recv),
			"wsrep_local_recv_queue", "40"}
	})
}

func TestGaleraFlowControl(t *testing.T) {
	runTimelines(t, IDGaleraFlowControl, DefaultConfig(), []timelineCase{
		{"this node sends, cluster paused 80%", series(5, pausedEach(0.8, 3, 3)), "...CC"},
		{"paused 20% by another node", series(5, pausedEach(0.2, 0, 2)), "...WW"},
		{"a few short pauses", series(5, pausedEach(0.02, 1, 1)), "....."},
		{"healthy node", series(5, galera()), "....."},
		{"not a Galera node", series(2), ".."},
		{"wsrep off on a MariaDB that prints wsrep status", series(2, galera("wsrep_provider_name", ""),
			func(_ int, s *snapshot.Snapshot) { s.Variables["wsrep_on"] = "OFF" }), ".."},
	})
	f := lastFinding(t, DefaultConfig(), series(5, pausedEach(0.8, 3, 3)), IDGaleraFlowControl)
	mustContain(t, f, "node node3 sends flow control", "paused 80% of the last 1 s", "sent 3 and received 3",
		"receive queue 40 (gcs.fc_limit 16)")
	f = lastFinding(t, DefaultConfig(), series(5, pausedEach(0.2, 0, 2)), IDGaleraFlowControl)
	mustContain(t, f, "another node sends", "this node receives")
}

func TestGaleraNodeNotSynced(t *testing.T) {
	runTimelines(t, IDGaleraNodeNotSynced, DefaultConfig(), []timelineCase{
		{"donor, desynced by a backup", series(4, galera("wsrep_local_state", "2",
			"wsrep_local_state_comment", "Donor/Desynced")), "..WW"},
		{"non-Primary", series(3, galera("wsrep_cluster_status", "non-Primary", "wsrep_ready", "OFF",
			"wsrep_local_state_comment", "Initialized", "wsrep_local_state", "0")), "..C"},
		{"desync on purpose", series(3, galera("wsrep_local_state", "2"), func(_ int, s *snapshot.Snapshot) {
			s.Variables["wsrep_desync"] = "ON"
		}), "..i"},
		{"synced", series(3, galera()), "..."},
		{"not a Galera node", series(2), ".."},
	})
	f := lastFinding(t, DefaultConfig(), series(3, galera("wsrep_cluster_status", "non-Primary")), IDGaleraNodeNotSynced)
	mustContain(t, f, "Galera node node3 is not synced: outside the Primary component (non-Primary)")
}

func TestGaleraClusterShrunk(t *testing.T) {
	shrinksAt := func(at int, to string) edit {
		return galeraAt(func(i int) []string {
			if i < at {
				return nil
			}
			return []string{"wsrep_cluster_size", to, "wsrep_cluster_conf_id", "6"}
		})
	}
	runTimelines(t, IDGaleraClusterShrunk, DefaultConfig(), []timelineCase{
		{"one of three left", series(5, shrinksAt(3, "2")), "...WW"},
		{"two of three left", series(4, shrinksAt(2, "1")), "..CC"},
		{"stable", series(4, galera()), "...."},
		{"grew", series(4, galeraAt(func(i int) []string { return []string{"wsrep_cluster_size", fmt.Sprint(2 + i/2)} })), "...."},
		{"not a Galera node", series(2), ".."},
	})
	f := lastFinding(t, DefaultConfig(), series(5, shrinksAt(3, "2")), IDGaleraClusterShrunk)
	mustContain(t, f, "Galera cluster shrank from 3 to 2 nodes", "wsrep_cluster_conf_id 5 → 6", "was 3 at 10:00:02")
}

func TestFlowControlSendersNamesTheSlowNode(t *testing.T) {
	node := func(name string, sent int) infer.NodeFrame {
		fs := frames(series(2, pausedEach(0.9, sent, 4), func(_ int, s *snapshot.Snapshot) {
			s.Variables["wsrep_node_name"] = name
		}))
		return infer.NodeFrame{Name: "127.0.0.1:" + name, Frame: fs[1]}
	}
	got := infer.FlowControlSenders([]infer.NodeFrame{node("node1", 0), node("node3", 4), node("node2", 0), {Name: "down"}})
	if len(got) != 1 || got[0] != "node3" {
		t.Errorf("senders %v, want [node3]", got)
	}
	if got := infer.FlowControlSenders([]infer.NodeFrame{node("node1", 0), node("node2", 0)}); len(got) != 0 {
		t.Errorf("no node sent, yet %v", got)
	}
}
