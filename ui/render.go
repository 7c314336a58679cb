package ui

import (
	"slices"
	"strings"
	"sync"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/rivo/uniseg"
)

// Render draws the dashboard as it looks at frame f onto an off-screen
// SimulationScreen of width×height, after feeding history (oldest first) to
// the sparklines. It never runs an application loop.
func Render(f *snapshot.Frame, width, height int, history []*snapshot.Frame) tcell.SimulationScreen {
	d := New(Options{HistoryLen: max(len(history)+1, defaultHistory)})
	for _, h := range history {
		d.Update(h)
	}
	d.Update(f)
	return d.drawOn(width, height)
}

// drawOn draws the current state onto a new SimulationScreen.
func (d *Dashboard) drawOn(width, height int) tcell.SimulationScreen {
	screen := tcell.NewSimulationScreen("UTF-8")
	// Init fails only for an unknown charset; UTF-8 is built into tcell.
	_ = screen.Init()
	screen.SetSize(width, height)
	d.root.SetRect(0, 0, width, height)
	d.root.Draw(screen)
	screen.Show()
	return screen
}

// ScreenText returns the screen's characters, one line per row, with trailing
// blanks trimmed. A wide character's second cell is skipped, so CJK text reads
// as on the terminal.
func ScreenText(s tcell.SimulationScreen) string {
	cells, w, h := s.GetContents()
	// GetContents hands out the screen's own cells, which a running
	// application redraws; read a copy taken under the screen's lock.
	if l, ok := s.(sync.Locker); ok {
		l.Lock()
		cells = slices.Clone(cells)
		l.Unlock()
	}
	var b strings.Builder
	for y := range h {
		var line strings.Builder
		for x := 0; x < w; x++ {
			c := cells[y*w+x]
			if len(c.Runes) == 0 {
				line.WriteByte(' ')
				continue
			}
			text := string(c.Runes)
			line.WriteString(text)
			if uniseg.StringWidth(text) == 2 {
				x++
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}
