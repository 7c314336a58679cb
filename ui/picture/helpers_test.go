package picture

import (
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// newScreen returns an initialised, empty SimulationScreen of cols×rows.
func newScreen(tb testing.TB, cols, rows int) tcell.SimulationScreen {
	tb.Helper()
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		tb.Fatal(err)
	}
	s.SetSize(cols, rows)
	return s
}

// put draws text from column x of row y, one grapheme per cell (two for a
// wide one), as tview would.
func put(s tcell.SimulationScreen, x, y int, text string, st tcell.Style) {
	g := uniseg.NewGraphemes(text)
	for g.Next() {
		r := g.Runes()
		s.SetContent(x, y, r[0], r[1:], st)
		x += max(g.Width(), 1)
	}
}

var (
	redBackground = tcell.StyleDefault.Background(tcell.ColorRed).Foreground(tcell.ColorWhite)
	greenText     = tcell.StyleDefault.Foreground(tcell.ColorGreen)
	reverseBold   = tcell.StyleDefault.Reverse(true).Bold(true)
)

// sampleScreen is a small dashboard-like screen: a label and a sparkline, a
// red-background alert cell, box lines, wide and odd runes, and reversed
// bold text that needs XML escaping.
func sampleScreen(tb testing.TB) tcell.SimulationScreen {
	s := newScreen(tb, 14, 5)
	put(s, 0, 0, "QPS ▁▃▅█", greenText)
	put(s, 10, 0, "!", redBackground)
	put(s, 0, 1, "┌──┐ ║═╗", tcell.StyleDefault)
	put(s, 0, 2, "世e\u0301\x07Z\ue000", tcell.StyleDefault)
	put(s, 0, 3, "a<b & c>", reverseBold)
	put(s, 0, 4, "└──┘", tcell.StyleDefault)
	s.Show()
	return s
}

// sampleText is what sampleScreen shows, line by line.
const sampleText = "QPS ▁▃▅█  !\n" +
	"┌──┐ ║═╗\n" +
	"世e\u0301 Z\ue000\n" +
	"a<b & c>\n" +
	"└──┘\n"
