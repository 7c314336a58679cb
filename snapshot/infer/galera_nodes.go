package infer

import (
	"slices"

	"github.com/mytop-go/mytop-go/snapshot"
)

// NodeFrame is one monitored node's latest frame, for views and rules that compare
// nodes of one cluster. A source of several servers (the fleet view) hands
// its nodes' frames here; one server's frame alone can only say whether it
// sends or receives.
type NodeFrame struct {
	Name  string
	Frame *snapshot.Frame
}

// FlowControlSenders names the nodes that sent flow control this interval,
// most messages first: the ones holding the cluster back. Nodes without a
// Galera view or an interval are skipped.
func FlowControlSenders(nodes []NodeFrame) []string {
	type sender struct {
		name string
		sent float64
	}
	var out []sender
	for _, n := range nodes {
		if n.Frame == nil || n.Frame.Snapshot == nil {
			continue
		}
		g, ok := n.Frame.Snapshot.Galera()
		r, ok2 := n.Frame.Rates.Galera()
		if !ok || !ok2 || r.Sent <= 0 {
			continue
		}
		name := n.Name
		if g.NodeName != "" {
			name = g.NodeName
		}
		out = append(out, sender{name, r.Sent})
	}
	slices.SortStableFunc(out, func(a, b sender) int {
		switch {
		case a.sent > b.sent:
			return -1
		case a.sent < b.sent:
			return 1
		}
		return 0
	})
	names := make([]string, len(out))
	for i, s := range out {
		names[i] = s.name
	}
	return names
}
