package analyzers

import (
	"fmt"

	"github.com/mytop-go/mytop-go/snapshot"
)

// IDGaleraFlowControl names the findings of galera_flow_control: a contract
// (the README's findings table), stable, never reused.
const IDGaleraFlowControl = "galera_flow_control"

// GaleraFlowControlConfig holds galera_flow_control's thresholds, each with its
// source and the trap it avoids.
type GaleraFlowControlConfig struct {
	// GaleraFCPausedWarn/Crit: share of an interval the cluster was paused by
	// flow control (design choice, UNSOURCED: the vendors only say "close to
	// 0.0"; a cluster paused a tenth of the time loses a tenth of its write
	// throughput, half is an outage in slow motion).
	GaleraFCPausedWarn float64
	GaleraFCPausedCrit float64
}

func (c *GaleraFlowControlConfig) defaults() {
	*c = GaleraFlowControlConfig{
		GaleraFCPausedWarn: 0.1,
		GaleraFCPausedCrit: 0.5,
	}
}

// galeraFlowControlRule is galera_flow_control in the rules table (rule.go);
// it keeps Config.DefaultPersistence.
var galeraFlowControlRule = rule{id: IDGaleraFlowControl, check: checkGaleraFlowControl, held: true}

// The cluster paused replication for flow control this interval (share of
// the interval from Δ wsrep_flow_control_paused_ns; the status value
// wsrep_flow_control_paused is since start-up, so it hides today). In Galera
// a paused cluster stops every node's writes: one slow node holds the whole
// cluster back. Thresholds are a design choice (no public source gives a
// number; the vendors' docs say only "close to 0.0 is healthy"): warn at
// GaleraFCPausedWarn, critical at GaleraFCPausedCrit. One node's frame tells
// whether this node sends the pause (its receive queue is past gcs.fc_limit:
// it is the slow one) or receives it (another node is); snapshot.FlowControlSenders
// names the sender among several monitored nodes.
func checkGaleraFlowControl(w *window, c *Config) verdict {
	g, v := galeraOf(w)
	if v != nil {
		return *v
	}
	r, ok := w.rates.Galera()
	if !ok {
		return quiet()
	}
	// A few pauses too short to cost the cluster anything stay quiet.
	if r.PausedFraction < c.GaleraFCPausedWarn {
		return quiet()
	}
	sev := snapshot.Warning
	if r.PausedFraction >= c.GaleraFCPausedCrit {
		sev = snapshot.Critical
	}
	paused := pctText(r.PausedFraction)
	queue := fmt.Sprintf("receive queue %d", g.RecvQueue)
	if g.FCLimit > 0 {
		queue += fmt.Sprintf(" (gcs.fc_limit %d)", g.FCLimit)
	}
	ev := []string{
		fmt.Sprintf("replication paused %s of the last %.0f s; %s sent %.0f and received %.0f flow-control messages",
			paused, w.rates.Interval, g.Label(), r.Sent, r.Received),
		fmt.Sprintf("%s, send queue %d, cluster size %d", queue, g.SendQueue, g.ClusterSize),
	}
	var title string
	if r.Sent > 0 {
		title = fmt.Sprintf("%s sends flow control: the cluster is paused %s of the time waiting for it", g.Label(), paused)
		ev = append(ev, "this node cannot apply write sets as fast as the cluster commits them")
	} else {
		title = fmt.Sprintf("cluster paused %s of the time by flow control another node sends", paused)
		ev = append(ev, "this node receives the pauses; the slow node is one whose wsrep_flow_control_sent rises")
	}
	return raise(sev, title, ev, galeraFlowControlAdvice, nil)
}

const galeraFlowControlAdvice = "Find the node that sends flow control (its wsrep_flow_control_sent rises, its " +
	"receive queue stays above gcs.fc_limit) and why its appliers are slow: a table without a primary key, a " +
	"long local query or lock, slow disk, too few wsrep_slave_threads. Raising gcs.fc_limit only hides it."

// pctText is a fraction as a whole percentage.
func pctText(f float64) string { return fmt.Sprintf("%.0f%%", f*100) }
