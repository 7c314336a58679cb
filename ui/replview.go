package ui

import (
	"fmt"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// replicationLines is the replication view: one block per channel.
func replicationLines(f *snapshot.Frame) []string {
	s := f.Snapshot
	chans := s.Channels()
	if len(chans) == 0 {
		return []string{naLine(s, snapshot.CollectorReplica, "not a replica: no replication channel")}
	}
	lines := []string{fmt.Sprintf("[::b]%-12s %-22s %-10s %-4s %-8s %-7s %-9s[::-]",
		"Channel", "Source", "IO", "SQL", "Behind", "Delay", "Relay log")}
	for _, ch := range chans {
		lines = append(lines, channelRow(ch))
		lines = append(lines, channelDetail(ch)...)
	}
	if w := s.ParallelWorkers(); w != "" {
		lines = append(lines, "[gray]parallel applier workers: "+safeLine(w, 10)+"[-]")
	}
	if note := staleNote(s, snapshot.CollectorReplica); note != "" {
		lines = append(lines, "[yellow]"+note+"[-]")
	}
	return lines
}

func channelRow(ch snapshot.Channel) string {
	name := ch.Name
	if name == "" {
		name = "(default)"
	}
	behind := "NULL"
	if lag, ok := ch.Lag(); ok {
		behind = fmt.Sprintf("%d s", lag)
	}
	return fmt.Sprintf("%-12s %-22s %s %s %-8s %-7s %-9s", safeLine(name, 12), safeLine(ch.Source, 22),
		threadCell(ch.IORunning, ch.IOOK(), 10), threadCell(ch.SQLRunning, ch.SQLOK(), 4), behind,
		fmt.Sprintf("%d s", ch.Delay), bytesCell(ch.RelayLogSpace))
}

// threadCell pads before colouring, so tags do not count as width.
func threadCell(v string, ok bool, w int) string {
	cell := fmt.Sprintf("%-*s", w, safeLine(v, w))
	if ok {
		return cell
	}
	return "[red]" + cell + "[-]"
}

func bytesCell(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1fG", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1fM", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.0fK", float64(b)/(1<<10))
	}
	return fmt.Sprint(b)
}

// channelDetail is the indented lines under a channel: thread states, GTID
// positions, errors.
func channelDetail(ch snapshot.Channel) []string {
	var out []string
	add := func(label, v string) {
		if strings.TrimSpace(v) != "" {
			out = append(out, "  [gray]"+label+"[-] "+safeLine(v, 200))
		}
	}
	add("IO: ", ch.IOState)
	add("SQL:", ch.SQLState)
	gtid := ch.GTIDApplied
	if ch.GTIDFetched != "" && ch.GTIDFetched != ch.GTIDApplied {
		gtid += "  fetched " + ch.GTIDFetched
	}
	add("GTID applied", gtid)
	add("parallel mode", ch.ParallelMode)
	if ch.Workers != "" {
		add("applier workers", ch.WorkersRunning+" of "+ch.Workers+" running")
	}
	add("applying", ch.Applying)
	if ch.LastIOErrno != 0 {
		out = append(out, fmt.Sprintf("  [red]IO error %d: %s[-]", ch.LastIOErrno, safeLine(ch.LastIOError, 200)))
	}
	if ch.LastSQLErrno != 0 {
		out = append(out, fmt.Sprintf("  [red]SQL error %d: %s[-]", ch.LastSQLErrno, safeLine(ch.LastSQLError, 200)))
	}
	return out
}

// replicationItem is the header's replication summary: how many channels,
// how many stopped, the worst lag. "" on a server that is no replica.
func replicationItem(s *snapshot.Snapshot) string {
	chans := s.Channels()
	if len(chans) == 0 {
		return ""
	}
	stopped, worst, known := 0, int64(0), false
	for _, ch := range chans {
		if !ch.IOOK() || !ch.SQLOK() {
			stopped++
		}
		if lag, ok := ch.Lag(); ok {
			worst, known = max(worst, lag), true
		}
	}
	item := fmt.Sprintf("repl %d ch", len(chans))
	if known {
		item += fmt.Sprintf(" lag %ds", worst)
	}
	if stopped > 0 {
		item += fmt.Sprintf(" [red]%d stopped[-]", stopped)
	}
	return item
}
