package ui

import (
	"fmt"

	"github.com/mytop-go/mytop-go/snapshot"
)

// galeraLines is the Galera view: this node's state and the cluster as it
// sees it, with flow control per interval.
func galeraLines(f *snapshot.Frame) []string {
	s := f.Snapshot
	g, ok := s.Galera()
	if !ok {
		return []string{"[gray]n/a: not a Galera node (wsrep_on is OFF or no wsrep status in this source)[-]"}
	}
	state := fmt.Sprintf("%s (%d)", safeLine(g.LocalStateComment, 40), g.LocalState)
	if !g.Synced() {
		state = "[red]" + state + "[-]"
	}
	lines := []string{
		fmt.Sprintf("%s of cluster %s: %s  component %s  ready %s  connected %s", safeLine(g.Label(), 40),
			safeLine(orNA(g.ClusterName), 40), state, safeLine(g.ClusterStatus, 20), onOff(g.Ready), onOff(g.Connected)),
		fmt.Sprintf("cluster size %d  conf id %d  last committed %s", g.ClusterSize, g.ConfID, commas(g.LastCommitted)),
	}
	if r, ok := f.Rates.Galera(); ok {
		fc := fmt.Sprintf("flow control: paused %s of the interval  sent %.0f  received %.0f", pct(r.PausedFraction*100),
			r.Sent, r.Received)
		if r.PausedFraction >= 0.1 {
			fc = "[red]" + fc + "[-]"
		}
		lines = append(lines, fc, fmt.Sprintf("commits %.0f  cert failures %.0f  BF aborts %.0f this interval",
			r.Committed, r.CertFailures, r.BFAborts))
	} else {
		lines = append(lines, "[gray]flow control: needs two samples[-]")
	}
	q := fmt.Sprintf("queues: receive %d  send %d", g.RecvQueue, g.SendQueue)
	if g.FCLimit > 0 {
		q += fmt.Sprintf("  (gcs.fc_limit %d)", g.FCLimit)
	}
	if g.Desync {
		q += "  [yellow]wsrep_desync ON[-]"
	}
	lines = append(lines, q, fmt.Sprintf("since start: cert failures %s  BF aborts %s  FC sent %s received %s",
		commas(g.CertFailures), commas(g.BFAbort), commas(g.FCSent), commas(g.FCRecv)))
	return lines
}

func onOff(b bool) string {
	if b {
		return "ON"
	}
	return "[red]OFF[-]"
}

func orNA(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// galeraItem is the header's Galera summary, "" on a server that is no node.
func galeraItem(f *snapshot.Frame) string {
	g, ok := f.Snapshot.Galera()
	if !ok {
		return ""
	}
	item := fmt.Sprintf("galera %s %d nodes", safeLine(g.LocalStateComment, 20), g.ClusterSize)
	if !g.Synced() {
		item = "[red]" + item + "[-]"
	}
	if r, ok := f.Rates.Galera(); ok && r.PausedFraction > 0 {
		item += " FC " + pct(r.PausedFraction*100)
	}
	return item
}
