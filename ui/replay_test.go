package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

func replayDashboard() (*Dashboard, *fakePlayer) {
	pl := &fakePlayer{
		from: t0.Add(-10 * time.Minute), to: t0.Add(10 * time.Minute), at: t0,
		spans: []Span{
			{From: t0.Add(-5 * time.Minute), To: t0.Add(-4 * time.Minute), ID: "buffer_pool_miss", Severity: snapshot.Warning},
			{From: t0.Add(-1 * time.Minute), To: t0.Add(2 * time.Minute), ID: "query_cache_contention", Severity: snapshot.Critical},
		},
	}
	d := New(Options{Player: pl})
	f := incidentFrame()
	f.Mode, f.Recording = "REPLAY", ""
	d.Update(f)
	return d, pl
}

func TestReplayKeysDrivePlayer(t *testing.T) {
	d, pl := replayDashboard()
	for _, r := range "p ][}{+-nN" {
		press(d, r)
	}
	if len(pl.calls) != 2 {
		t.Errorf("pause calls = %v, want p and Space", pl.calls)
	}
	if !slices.Equal(pl.steps, []int{1, -1}) {
		t.Errorf("steps = %v", pl.steps)
	}
	if want := []time.Time{t0.Add(time.Minute), t0.Add(-time.Minute)}; !slices.EqualFunc(pl.seeks, want, time.Time.Equal) {
		t.Errorf("seeks = %v, want %v", pl.seeks, want)
	}
	if !slices.Equal(pl.speeds, []float64{2, 1}) {
		t.Errorf("speeds = %v", pl.speeds)
	}
	if !slices.Equal(pl.findDir, []int{1, -1}) {
		t.Errorf("finding jumps = %v", pl.findDir)
	}
}

func TestReplaySeekStaysInRange(t *testing.T) {
	d, pl := replayDashboard()
	pl.at = pl.to.Add(-time.Second)
	press(d, '}')
	if !pl.seeks[0].Equal(pl.to) {
		t.Errorf("seek past the end went to %v", pl.seeks[0])
	}
}

func TestTimelineShowsPositionAndSpans(t *testing.T) {
	d, _ := replayDashboard()
	s := screenOf(d, 120, 40)
	line := lineWith(s, "┃")
	mustContain(t, line, "▶ ×1 14:02:17", "13:52–14:12", "▓", "█")
	// The position marker sits inside the critical span, about half-way.
	pos := strings.IndexRune(line, '┃')
	if crit := strings.IndexRune(line, '█'); crit < 0 || crit > pos {
		t.Errorf("critical span should start before the position: %q", line)
	}
	if warn := strings.IndexRune(line, '▓'); warn > pos {
		t.Errorf("warning span is before the position: %q", line)
	}
}
