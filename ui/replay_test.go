package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
)

func replayDashboard() (*Dashboard, *fakePlayer) {
	pl := &fakePlayer{
		from: t0.Add(-10 * time.Minute), to: t0.Add(10 * time.Minute), at: t0,
		spans: []snapshot.Span{
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

func TestTimelineShowsThePlayersSpeed(t *testing.T) {
	d, pl := replayDashboard()
	pl.speed = 4 // as with --speed 4, which the dashboard never asked for
	mustContain(t, lineWith(screenOf(d, 120, 40), "┃"), "▶ ×4 14:02:17")
	pl.maxSpeed = 6
	press(d, '+')
	if !slices.Equal(pl.speeds, []float64{8}) {
		t.Errorf("asked for %v, want 8", pl.speeds)
	}
	s := screenOf(d, 120, 40)
	mustContain(t, lineWith(s, "┃"), "×6 ")
	mustContain(t, s, "speed ×6")
}

func TestGoToTimeSeeks(t *testing.T) {
	d, pl := replayDashboard()
	press(d, 'g')
	mustContain(t, screenOf(d, 120, 40), "go to (15:04:05")
	typeText(d, "14:05:00")
	pressKey(d, tcell.KeyEnter)
	pl.at = t0.Add(time.Minute)
	press(d, 'g')
	typeText(d, "-30s")
	pressKey(d, tcell.KeyEnter)
	want := []time.Time{time.Date(2026, 12, 1, 14, 5, 0, 0, time.UTC), t0.Add(30 * time.Second)}
	if !slices.EqualFunc(pl.seeks, want, time.Time.Equal) {
		t.Errorf("seeks = %v, want %v", pl.seeks, want)
	}
	if d.modal != nil {
		t.Error("Enter should close the prompt")
	}
}

func TestGoToBadTimeSaysWhy(t *testing.T) {
	d, pl := replayDashboard()
	for _, c := range []struct{ typed, why string }{
		{"soon", `go to: "soon" is not a time`},
		{"18:00:00", "go to: 18:00:00 is outside this replay (13:52:17 – 14:12:17)"},
	} {
		press(d, 'g')
		typeText(d, c.typed)
		pressKey(d, tcell.KeyEnter)
		mustContain(t, screenOf(d, 160, 40), c.why)
	}
	press(d, 'g')
	typeText(d, "14:00")
	pressKey(d, tcell.KeyEscape)
	if len(pl.seeks) != 0 {
		t.Errorf("seeked to %v", pl.seeks)
	}
}

func TestFindingJumpSaysWhereItWent(t *testing.T) {
	d, pl := replayDashboard()
	press(d, 'N')
	mustContain(t, screenOf(d, 120, 40), "query_cache_contention began 14:01:17")
	if !pl.at.Equal(t0.Add(-time.Minute)) {
		t.Errorf("at = %v", pl.at)
	}
	press(d, 'n')
	mustContain(t, screenOf(d, 120, 40), "no finding starts later in this replay")
}
