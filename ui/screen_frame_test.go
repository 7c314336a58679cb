package ui

import (
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
)

// puttingScreen counts the cells handed to tcell.
type puttingScreen struct {
	tcell.SimulationScreen
	puts int
}

func (p *puttingScreen) Put(x, y int, str string, style tcell.Style) (string, int) {
	p.puts++
	return p.SimulationScreen.Put(x, y, str, style)
}

func newPuttingScreen(w, h int) *puttingScreen {
	s := tcell.NewSimulationScreen("UTF-8")
	_ = s.Init() // fails only for an unknown charset
	s.SetSize(w, h)
	return &puttingScreen{SimulationScreen: s}
}

// frameDraw draws d as tview's Application does: clear, draw, show.
func frameDraw(d *Dashboard, s tcell.Screen, w, h int) {
	s.Clear()
	d.root.SetRect(0, 0, w, h)
	d.root.Draw(s)
	s.Show()
}

// sameCells fails t where a and b differ in any cell.
func sameCells(t *testing.T, when string, a, b tcell.SimulationScreen) {
	t.Helper()
	ca, w, h := a.GetContents()
	cb, _, _ := b.GetContents()
	for i := range ca {
		if string(ca[i].Runes) != string(cb[i].Runes) || ca[i].Style != cb[i].Style {
			t.Fatalf("%s: cell %d,%d is %q %v through the frame screen, %q %v drawn directly (%dx%d)", when,
				i%w, i/w, string(ca[i].Runes), ca[i].Style, string(cb[i].Runes), cb[i].Style, w, h)
		}
	}
}

// TestFrameScreenSendsOnlyWhatChanged: the terminal gets a frame whole once,
// then only the cells that changed, and shows what a direct draw shows.
func TestFrameScreenSendsOnlyWhatChanged(t *testing.T) {
	const w, h = 200, 50
	d := New(Options{})
	under := newPuttingScreen(w, h)
	fs := newFrameScreen(under)
	frames := []*snapshot.Frame{incidentFrame(), incidentFrame(), frameAt(3), bigFrame(300)}
	for i, f := range frames {
		d.Update(f)
		under.puts = 0
		frameDraw(d, fs, w, h)
		sameCells(t, "frame "+itoa(i), under.SimulationScreen, d.drawOn(w, h))
		switch i {
		case 0:
			if under.puts != w*h {
				t.Errorf("first frame: %d cells sent, want all %d", under.puts, w*h)
			}
		case 1: // the same frame again: the clock and sparklines may move, little else
			if under.puts > w*h/20 {
				t.Errorf("an unchanged frame sent %d of %d cells", under.puts, w*h)
			}
		}
		t.Logf("frame %d: %d of %d cells sent", i, under.puts, w*h)
	}
	// A new size sends the next frame whole.
	under.SetSize(120, 40)
	under.puts = 0
	frameDraw(d, fs, 120, 40)
	if under.puts != 120*40 {
		t.Errorf("after a resize: %d cells sent, want all %d", under.puts, 120*40)
	}
	sameCells(t, "after a resize", under.SimulationScreen, d.drawOn(120, 40))
}

// TestFrameScreenReadsTheFrameBeingDrawn: tview reads cells back while it
// draws (a selected row's style); it must read this frame's, not the last.
func TestFrameScreenReadsTheFrameBeingDrawn(t *testing.T) {
	fs := newFrameScreen(newPuttingScreen(10, 2))
	fs.Clear()
	fs.SetContent(1, 0, 'x', nil, tcell.StyleDefault.Bold(true))
	fs.Put(2, 0, "世界", tcell.StyleDefault)
	if r, _, st, _ := fs.GetContent(1, 0); r != 'x' || st != tcell.StyleDefault.Bold(true) {
		t.Errorf("read back %q %v", r, st)
	}
	if str, _, width := fs.Get(2, 0); str != "世" || width != 2 {
		t.Errorf("wide rune read back as %q width %d", str, width)
	}
	fs.Show()
	fs.Clear()
	if r, _, _, _ := fs.GetContent(1, 0); r != ' ' {
		t.Errorf("a cleared cell reads %q", r)
	}
}

func BenchmarkFrameScreenUnchangedFrame(b *testing.B) {
	const w, h = 200, 50
	d := New(Options{})
	d.Update(bigFrame(5000))
	under := newPuttingScreen(w, h)
	fs := newFrameScreen(under)
	frameDraw(d, fs, w, h)
	b.ReportAllocs()
	for b.Loop() {
		frameDraw(d, fs, w, h)
	}
}
