package ui

import "github.com/gdamore/tcell/v2"

// handleKey moves the selection or the columns for the keys tview's Table
// took in this panel (arrows, j/k, PgUp/PgDn, Ctrl-B/Ctrl-F, Home/End, g/G;
// Left/Right and l scroll the columns) and reports whether the selected row
// changed. With no rows the selection keys do nothing: tview's Table looped
// for ever on Up, Down, PgUp and PgDn over a header without rows.
func (g *procGrid) handleKey(ev *tcell.EventKey) bool {
	if g.scrollColumns(ev) {
		return false
	}
	rows := len(g.content.list.rows)
	target, ok := g.target(ev, rows)
	if !ok {
		return false
	}
	if rows == 0 {
		g.sel = 0
		return false
	}
	before := g.sel
	g.selectRow(max(min(target, rows-1), 0))
	return g.sel != before
}

// runeMoves are the letters tview's Table read as moves.
var runeMoves = map[rune]tcell.Key{'k': tcell.KeyUp, 'j': tcell.KeyDown, 'g': tcell.KeyHome, 'G': tcell.KeyEnd}

// target is the row a selection key asks for, before bounding to the rows.
func (g *procGrid) target(ev *tcell.EventKey, rows int) (int, bool) {
	key := ev.Key()
	if key == tcell.KeyRune {
		if key = runeMoves[ev.Rune()]; key == 0 {
			return 0, false
		}
	}
	page := max(g.pageRows-1, 0)
	switch key {
	case tcell.KeyUp:
		return g.sel - 1, true
	case tcell.KeyDown:
		return g.sel + 1, true
	case tcell.KeyPgUp, tcell.KeyCtrlB:
		return g.sel - page, true
	case tcell.KeyPgDn, tcell.KeyCtrlF:
		return g.sel + page, true
	case tcell.KeyHome:
		return 0, true
	case tcell.KeyEnd:
		return rows - 1, true
	}
	return 0, false
}
