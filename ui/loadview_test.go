package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// loadFrames is two minutes of a 2-CPU server: a quiet minute of two busy
// sessions, then twelve row-lock waiters on shop.hot beside them.
func loadFrames() []*snapshot.Frame {
	t0 := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	var out []*snapshot.Frame
	var m infer.LoadMeter
	for i := range 120 {
		s := &snapshot.Snapshot{Time: t0.Add(time.Duration(i) * time.Second), Host: &snapshot.Host{NumCPU: 2}, Locks: &snapshot.Locks{}}
		s.Processlist = []snapshot.Process{
			{ID: 1, User: "batch", Host: "10.0.0.9:4000", DB: "shop", Command: "Query", State: "Sending data", Info: "SELECT SUM(x) FROM big"},
			{ID: 2, User: "batch", Host: "10.0.0.9:4001", DB: "shop", Command: "Query", State: "Sending data", Info: "SELECT SUM(x) FROM big"},
			{ID: 3, User: "app", Command: "Sleep"},
		}
		if i >= 60 {
			for w := range 12 {
				id := int64(100 + w)
				s.Processlist = append(s.Processlist, snapshot.Process{ID: id, User: "app", Host: "10.0.0.12:5000", DB: "shop",
					Command: "Query", State: "Updating", Info: "UPDATE hot SET n = n + 1 WHERE id = 7"})
				s.Locks.Waits = append(s.Locks.Waits, snapshot.LockWait{Waiter: id, Blocker: 3, Kind: snapshot.LockRow, Object: "shop.hot PRIMARY"})
			}
		}
		f := &snapshot.Frame{Seq: i, Snapshot: s, Mode: snapshot.ModeLive}
		f.Load = m.Measure(s, nil)
		out = append(out, f)
	}
	return out
}

// TestLoadViewAt80x24: W opens the load view in place of the dashboard's
// body; at 80×24 it shows the stacked timeline with the CPU line, the
// classes and the top slices, and W closes it.
func TestLoadViewAt80x24(t *testing.T) {
	d := New(Options{})
	for _, f := range loadFrames() {
		d.Update(f)
	}
	press(d, 'W')
	sim := d.drawOn(80, 24)
	screen := ScreenText(sim)
	mustContain(t, screen, "Load: active sessions by wait class, last 2m", "now 14 active on 2 CPUs",
		"row_lock", "cpu", "top slices", "update hot set n = n + ?", "lock", "shop.hot", "W/Esc back")
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	if len(lines) > 24 {
		t.Fatalf("%d lines", len(lines))
	}
	for i, l := range lines {
		if len([]rune(l)) > 80 {
			t.Errorf("line %d is %d wide: %q", i, len([]rune(l)), l)
		}
	}
	// The chart: the rightmost column is 12 R over 2 C; the CPU line is
	// drawn at 2 where the stack is lower (the quiet minute, left).
	var rCells, cCells, cpuLine int
	w, h := sim.Size()
	for y := range h {
		for x := range w {
			str, style, _ := sim.Get(x, y)
			_, bg, _ := style.Decompose()
			switch {
			case str == "R" && bg == classColors[snapshot.ClassRowLock]:
				rCells++
			case str == "C" && bg == classColors[snapshot.ClassCPU]:
				cCells++
			case str == "-":
				cpuLine++
			}
		}
	}
	if rCells == 0 || cCells == 0 || cpuLine == 0 {
		t.Errorf("chart: %d row-lock cells, %d cpu cells, %d CPU-line cells\n%s", rCells, cCells, cpuLine, screen)
	}
	press(d, 'W')
	mustNotContain(t, screenOf(d, 80, 24), "Load: active sessions")
	press(d, 'W')
	pressKey(d, tcell.KeyEscape)
	mustNotContain(t, screenOf(d, 80, 24), "Load: active sessions")
}

// TestLoadViewWithoutLoad: a source with no processlist says so.
func TestLoadViewWithoutLoad(t *testing.T) {
	d := New(Options{})
	d.Update(&snapshot.Frame{Snapshot: &snapshot.Snapshot{Time: time.Now()}})
	press(d, 'W')
	mustContain(t, screenOf(d, 80, 24), "no load yet")
}
