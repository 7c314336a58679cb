package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// headerState is what the header shows beyond the frame itself.
type headerState struct {
	paused bool
	// pending counts frames that arrived while paused.
	pending int
	rec     recState
	// blind is the frame's blind-spot mark (blindMark), worked out once
	// per frame, not per draw.
	blind string
	// canAsk: the source logs in again when asked (Ctrl-R).
	canAsk bool
}

// identityLine is the first header line: which server, which moment, whether
// it answers. Load figures are on the second line.
func identityLine(f *snapshot.Frame, st headerState, width int) string {
	s := f.Snapshot
	items := []item{
		{"[::b]mytop-go[::-]", 9},
		{safeLine(s.Server.Address, 60), 7},
		{serverVersion(s.Server), 4},
		{uptime(s), 3},
		{modeClock(f), 8},
		{recordingMark(st.rec), 8},
		{pausedMark(st), 9},
		{unreachable(s), 10},
		{loginRefused(s, st.canAsk), 10},
		{st.blind, 6},

		{ownSessionsCap(s), 9},
	}
	return fit(items, width-len("  ? help"))
}

func serverVersion(sv snapshot.ServerInfo) string {
	if sv.Version == "" {
		return ""
	}
	v, _, _ := strings.Cut(sv.Version, "-")
	name := map[string]string{snapshot.FlavorMariaDB: "MariaDB", snapshot.FlavorMySQL: "MySQL", snapshot.FlavorPercona: "Percona"}[sv.Flavor]
	return strings.TrimSpace(safeLine(name+" "+v, 40))
}

func uptime(s *snapshot.Snapshot) string {
	up, ok := s.Uptime()
	if !ok {
		return ""
	}
	return "up " + age(time.Duration(up)*time.Second)
}

func modeClock(f *snapshot.Frame) string {
	mode := f.Mode
	if mode == "" {
		mode = snapshot.ModeLive
	}
	layout := "15:04:05"
	if mode != snapshot.ModeLive {
		layout = "2006-01-02 15:04:05"
	}
	approx := ""
	if f.Snapshot.Approximate {
		approx = "~"
	}
	return fmt.Sprintf("[::b]%s[::-] %s%s", safeLine(string(mode), 10), approx, f.Snapshot.Time.Format(layout))
}

func pausedMark(st headerState) string {
	switch {
	case !st.paused:
		return ""
	case st.pending > 0:
		return fmt.Sprintf("[black:yellow]PAUSED[-:-] (%d new)", st.pending)
	default:
		return "[black:yellow]PAUSED[-:-]"
	}
}

// unreachable says how long the server has not answered; the "!!" keeps the
// warning visible without colour.
func unreachable(s *snapshot.Snapshot) string {
	if !s.Server.Unreachable {
		return ""
	}
	down := "no answer"
	if !s.Server.DownSince.IsZero() {
		down = "no answer for " + age(s.Time.Sub(s.Server.DownSince))
	}
	if s.Server.Error != "" {
		down += ": " + safeLine(s.Server.Error, 80)
	}
	return "[red::b]!! " + down + "[-::-]"
}

// ownSessionsCap says the monitor holds as many sessions on the server as it
// allows itself (sampling, on-demand, and those it gave up on that the
// server has not ended yet): it opens no other until one ends.
func ownSessionsCap(s *snapshot.Snapshot) string {
	if s.Server.OwnSessionsCap == 0 || s.Server.OwnSessions < s.Server.OwnSessionsCap {
		return ""
	}
	return fmt.Sprintf("[yellow::b]! own sessions %d/%d: at the monitor's cap[-::-]", s.Server.OwnSessions, s.Server.OwnSessionsCap)
}

func threadsItem(s *snapshot.Snapshot) string {
	conn, run, ok := threads(s)
	if !ok {
		return "thr n/a"
	}
	return fmt.Sprintf("thr %s/%s run", commas(conn), commas(run))
}

// figuresLine is the second header line: the key figures that stand in for
// the side panels when the terminal is small.
func figuresLine(f *snapshot.Frame, width int) string {
	s := f.Snapshot
	items := []item{
		{"QPS " + naShort(qps(f)), 9},
		{threadsItem(s), 8},
		{"BP miss " + naPct(bpMissPercent(f)), 7},
		{"QC hit " + naPct(qcHitPercent(f)), 5},
		{"slow " + perSecond(rate(f, "Slow_queries")), 4},
		{procsItem(s.Host), 6},
		{cpuItem(f), 7},
		{replicationItem(s), 8},
		{galeraItem(f), 8},
		{mysqldItem(f), 6},
	}
	return fit(items, width)
}

func perSecond(v float64, ok bool) string {
	if !ok {
		return "n/a"
	}
	return short(v) + "/s"
}

func procsItem(h *snapshot.Host) string {
	if h == nil || h.Remote {
		return ""
	}
	return fmt.Sprintf("r %d b %d", h.ProcsRunning, h.ProcsBlocked)
}

func cpuItem(f *snapshot.Frame) string {
	h := f.Snapshot.Host
	switch {
	case h != nil && h.NotLocal != "":
		return "CPU not local"
	case h != nil && h.Remote:
		return "CPU remote"
	case f.Rates == nil || f.Rates.Host == nil:
		return "CPU n/a"
	}
	c := f.Rates.Host.CPU
	return fmt.Sprintf("CPU us %.0f sy %.0f id %.0f wa %.0f", c.User+c.Nice, c.System+c.IRQ+c.SoftIRQ, c.Idle, c.IOWait)
}
