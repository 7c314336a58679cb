package ui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestRenderSmallCollapsesPanelsIntoHeader(t *testing.T) {
	s := ScreenText(Render(incidentFrame(), 80, 24, nil))
	lines := strings.Split(s, "\n")
	mustContain(t, lines[0], "mytop-go", "db1:3306", "LIVE 14:02:17", "? help")
	mustContain(t, lines[1], "QPS 1,482", "thr 212/38 run", "BP miss 0.2%", "CPU us 31 sy 4 id 62 wa 3")
	mustContain(t, s, "Findings (2)", "CRIT query_cache_contention 0:41", "WARN full_scan_update", "Processlist")
	mustNotContain(t, s, "Server /s", "InnoDB", "load 7.9")
	for i, l := range lines {
		if w := len([]rune(l)); w > 80 {
			t.Errorf("line %d is %d wide", i, w)
		}
	}
}

func TestRenderLargeShowsAllPanels(t *testing.T) {
	s := ScreenText(Render(incidentFrame(), 200, 50, nil))
	mustContain(t, s,
		"MariaDB 10.11.19", "up 3d04h", "REC incident.mytop", "QC hit 13%", "slow 3/s",
		"UPDATE b SET qty = qty - 1 WHERE c = 'x'", "2,104,331",
		"Server /s", "sel 1,201 ins 12 upd 41 del 3 oth 225", "QC hits 180 ins 1,020 prune 3",
		"BP req 45,000 reads 90 miss 0.2%", "rows read 4.2M changed 41", "tmp disk tables 0  merge passes 0",
		"InnoDB", "BP 128M free 2.0% dirty 14%", "ckpt age 31M (31% of log)", "queue 0 inside 8", "HLL 1,204", "lock waits 3",
		"Host", "load 7.9 5.1 3.2", "cs 41,000", "mem 72%", "sda util 64% await 38 ms r 410 w 220",
		"not applicable: server is not a replica",
	)
}

func TestRenderUnknownLoadIsMissingNotZero(t *testing.T) {
	f := incidentFrame()
	h := *f.Snapshot.Host
	h.LoadUnknown = true
	snap := *f.Snapshot
	snap.Host = &h
	f.Snapshot = &snap
	s := ScreenText(Render(f, 200, 50, nil))
	mustContain(t, s, "load –  r ")
	mustNotContain(t, s, "load 7.9", "load 0.0")
}

func TestFindingsMostSevereFirst(t *testing.T) {
	s := ScreenText(Render(incidentFrame(), 120, 40, nil))
	crit, warn := strings.Index(s, "query_cache_contention"), strings.Index(s, "full_scan_update")
	if crit < 0 || warn < 0 || crit > warn {
		t.Errorf("critical finding must come first:\n%s", s)
	}
}

func TestMissingSourcesSayWhyNotZero(t *testing.T) {
	f := incidentFrame()
	f.Snapshot.InnoDB = nil
	f.Snapshot.Host = nil
	f.Snapshot.Processlist = nil
	f.Snapshot.Collectors = map[snapshot.CollectorName]snapshot.CollectorState{
		snapshot.CollectorInnoDB:      {Unavailable: "needs the PROCESS privilege"},
		snapshot.CollectorHost:        {Error: "open /proc/stat: permission denied"},
		snapshot.CollectorProcesslist: {Unavailable: "needs the PROCESS privilege"},
	}
	s := ScreenText(Render(f, 200, 50, nil))
	mustContain(t, s, "n/a: needs the PROCESS privilege", "n/a: open /proc/stat: permission denied")
	if strings.Count(s, "n/a: needs the PROCESS privilege") < 2 {
		t.Errorf("processlist and InnoDB should both say why:\n%s", s)
	}
}

func TestFirstFrameHasNoRatesNotZeros(t *testing.T) {
	f := incidentFrame()
	f.Rates = nil
	s := ScreenText(Render(f, 200, 50, nil))
	mustContain(t, s, "QPS n/a", "rates from the next sample", "CPU n/a")
	mustNotContain(t, s, "QPS 0 ")
}

func TestRemoteHostIsNamedNotShown(t *testing.T) {
	f := incidentFrame()
	f.Snapshot.Host = &snapshot.Host{Remote: true, Hostname: "monitor1"}
	f.Rates.Host = nil
	s := ScreenText(Render(f, 200, 50, nil))
	mustContain(t, s, "server is remote: host figures are for monitor1", "CPU remote")
	if loadAvg := regexp.MustCompile(`load [0-9]`); loadAvg.MatchString(s) { // the host's load averages, not the W load view's hint
		t.Errorf("a remote server's screen shows this machine's load averages:\n%s", s)
	}
}

// A loopback address that is a tunnel: the panel says why this machine's
// figures are not the server's.
func TestNotLocalHostSaysWhy(t *testing.T) {
	f := incidentFrame()
	f.Snapshot.Host = &snapshot.Host{Remote: true, Hostname: "monitor1",
		NotLocal: "127.0.0.1:3307 is held by ssh (pid 812), not by a mysqld (a tunnel or a forwarder)"}
	f.Rates.Host = nil
	s := ScreenText(Render(f, 200, 50, nil))
	mustContain(t, s, "not local: 127.0.0.1:3307 is held by ssh (pid 812)", "CPU not local")
	mustNotContain(t, s, "server is remote")
}

func TestUnreachableServerInHeader(t *testing.T) {
	f := incidentFrame()
	f.Snapshot.Server.Unreachable = true
	f.Snapshot.Server.DownSince = t0.Add(-12 * time.Second)
	f.Snapshot.Server.Error = "dial tcp 10.0.0.5:3306: i/o timeout"
	s := ScreenText(Render(f, 200, 50, nil))
	mustContain(t, strings.Split(s, "\n")[0], "!! no answer for 12s: dial tcp 10.0.0.5:3306: i/o timeout")
}

func TestReplayHeaderShowsDate(t *testing.T) {
	f := incidentFrame()
	f.Mode, f.Recording = "REPLAY", ""
	s := ScreenText(Render(f, 120, 30, nil))
	mustContain(t, s, "REPLAY 2026-12-01 14:02:17")
	mustNotContain(t, s, "REC ")
}

func TestSparklinesFollowHistory(t *testing.T) {
	var hist []*snapshot.Frame
	for i := range 20 {
		f := frameAt(int64(900 + i))
		// A quiet first half, then a burst: the sparkline must rise.
		if i >= 10 {
			f.Rates.Status["Questions"] = 5000
		}
		hist = append(hist, f)
	}
	s := ScreenText(Render(hist[len(hist)-1], 200, 50, hist[:len(hist)-1]))
	line := lineWith(s, "│QPS 5,000")
	if !strings.Contains(line, "▃▃▃▃▃▃▃▃▃▃██████████") {
		t.Errorf("QPS sparkline does not show the burst: %q", line)
	}
}

func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

func TestWaitingBeforeFirstFrame(t *testing.T) {
	d := New(Options{})
	mustContain(t, screenOf(d, 80, 24), "waiting for the first sample")
}

func TestStaleSourcesAreMarked(t *testing.T) {
	f := incidentFrame()
	f.Snapshot.Collectors = map[snapshot.CollectorName]snapshot.CollectorState{
		snapshot.CollectorHost:        {Stale: true, Error: "carried from 14:02:10"},
		snapshot.CollectorProcesslist: {Stale: true, Error: "timeout after 800ms"},
	}
	s := ScreenText(Render(f, 200, 50, nil))
	mustContain(t, s, "Host (stale: carried from 14:02:10)", "(stale: timeout after 800ms)")
	mustNotContain(t, s, "InnoDB (stale")
}

// A stale note too long for its panel is cut, never the panel's name: at
// 160 columns a long "no answer to ..." left "/s (stale: ..." of "Server /s".
func TestLongStaleNoteKeepsThePanelName(t *testing.T) {
	f := incidentFrame()
	why := "not connected: no answer to account_limits within the tick"
	f.Snapshot.Collectors = map[snapshot.CollectorName]snapshot.CollectorState{}
	for _, c := range []snapshot.CollectorName{snapshot.CollectorStatus, snapshot.CollectorHost, snapshot.CollectorInnoDB} {
		f.Snapshot.Collectors[c] = snapshot.CollectorState{Stale: true, Error: why}
	}
	for _, w := range []int{160, 200} {
		s := ScreenText(Render(f, w, 45, nil))
		if !strings.Contains(s, "Server /s") || !strings.Contains(s, "(stale: not connected") {
			t.Errorf("at %d columns the panel's name or its note is lost:\n%s", w, s)
		}
	}
}
