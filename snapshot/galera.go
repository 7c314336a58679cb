package snapshot

import (
	"strconv"
	"strings"
)

// Galera is one node's view of its Galera cluster, decoded from the wsrep_*
// status values SHOW GLOBAL STATUS already carries every tick and the wsrep_*
// variables SHOW GLOBAL VARIABLES carries: reading it sends no statement of
// its own. The counters are cumulative; per-interval figures come from Rates
// (GaleraRates).
type Galera struct {
	NodeName, ClusterName string
	// ClusterSize is wsrep_cluster_size; ConfID changes with every membership
	// change (wsrep_cluster_conf_id).
	ClusterSize, ConfID int64
	// ClusterStatus is Primary, non-Primary or Disconnected.
	ClusterStatus string
	// LocalState is wsrep_local_state (4 = Synced) and its comment.
	LocalState        int64
	LocalStateComment string
	Ready, Connected  bool
	// Desync is the wsrep_desync variable: a node desynced on purpose (a
	// backup) does not send flow control.
	Desync                bool
	RecvQueue, SendQueue  int64
	FCSent, FCRecv        int64
	FCPausedNS            int64
	CertFailures, BFAbort int64
	LastCommitted         int64
	// FCLimit is gcs.fc_limit from wsrep_provider_options, 0 when unknown.
	FCLimit int64
}

// Galera states (wsrep_local_state).
const galeraSynced = 4

// Galera decodes the node's wsrep figures; ok is false on a server that is no
// Galera node: wsrep_on is OFF (MariaDB prints wsrep status even then, with
// a Disconnected cluster), or, in a capture without variables, no provider
// is named.
func (s *Snapshot) Galera() (Galera, bool) {
	if !s.isGaleraNode() {
		return Galera{}, false
	}
	g := Galera{
		NodeName:          s.Variables["wsrep_node_name"],
		ClusterName:       s.Variables["wsrep_cluster_name"],
		ClusterStatus:     s.statusText("wsrep_cluster_status"),
		LocalStateComment: s.statusText("wsrep_local_state_comment"),
		Ready:             isOn(s.statusText("wsrep_ready")),
		Connected:         isOn(s.statusText("wsrep_connected")),
		Desync:            isOn(s.Variables["wsrep_desync"]),
		FCLimit:           providerOption(s.Variables["wsrep_provider_options"], "gcs.fc_limit"),
	}
	ints := map[string]*int64{
		"wsrep_cluster_size": &g.ClusterSize, "wsrep_cluster_conf_id": &g.ConfID,
		"wsrep_local_state": &g.LocalState, "wsrep_local_recv_queue": &g.RecvQueue,
		"wsrep_local_send_queue": &g.SendQueue, "wsrep_flow_control_sent": &g.FCSent,
		"wsrep_flow_control_recv": &g.FCRecv, "wsrep_flow_control_paused_ns": &g.FCPausedNS,
		"wsrep_local_cert_failures": &g.CertFailures, "wsrep_local_bf_aborts": &g.BFAbort,
		"wsrep_last_committed": &g.LastCommitted,
	}
	for name, dst := range ints {
		*dst, _ = s.StatusInt(name)
	}
	return g, true
}

func (s *Snapshot) isGaleraNode() bool {
	if on, ok := s.Variables["wsrep_on"]; ok {
		return isOn(on) && s.Variables["wsrep_provider"] != "none"
	}
	return strings.TrimSpace(s.statusText("wsrep_provider_name")) != ""
}

// Synced is the state a node serves from: Synced, in a Primary component,
// ready for queries.
func (g Galera) Synced() bool {
	return g.LocalState == galeraSynced && strings.EqualFold(g.ClusterStatus, "Primary") && g.Ready
}

// Label names the node: its wsrep_node_name, or "this node".
func (g Galera) Label() string {
	if g.NodeName == "" {
		return "this node"
	}
	return "node " + g.NodeName
}

// GaleraRates is one interval of a node's flow control.
type GaleraRates struct {
	// PausedFraction is the share of the interval replication was paused for
	// flow control (Δ wsrep_flow_control_paused_ns over the interval).
	PausedFraction float64
	// Sent and Received are flow-control messages this interval: sent means
	// this node asked the cluster to pause.
	Sent, Received float64
	CertFailures   float64
	BFAborts       float64
	Committed      float64
}

// Galera returns the interval's flow-control figures; ok is false without a
// previous sample or when the counters went back (a restart).
func (r *Rates) Galera() (GaleraRates, bool) {
	if r == nil {
		return GaleraRates{}, false
	}
	paused, ok := r.Rate("wsrep_flow_control_paused_ns")
	if !ok {
		return GaleraRates{}, false
	}
	var g GaleraRates
	g.PausedFraction = min(paused/1e9, 1)
	per := func(name string) float64 { v, _ := r.Rate(name); return v * r.Interval }
	g.Sent, g.Received = per("wsrep_flow_control_sent"), per("wsrep_flow_control_recv")
	g.CertFailures, g.BFAborts = per("wsrep_local_cert_failures"), per("wsrep_local_bf_aborts")
	g.Committed = per("wsrep_last_committed")
	return g, true
}

func isOn(v string) bool {
	switch strings.ToUpper(strings.TrimSpace(v)) {
	case "ON", "1", "YES", "TRUE":
		return true
	}
	return false
}

// providerOption reads one numeric "key = value;" of wsrep_provider_options.
func providerOption(opts, key string) int64 {
	for _, part := range strings.Split(opts, ";") {
		k, v, ok := strings.Cut(part, "=")
		if !ok || strings.TrimSpace(k) != key {
			continue
		}
		n, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err == nil {
			return int64(n)
		}
	}
	return 0
}

// statusText is a status value, empty when absent.
func (s *Snapshot) statusText(name string) string {
	v, _ := s.StatusValue(name)
	return v
}
