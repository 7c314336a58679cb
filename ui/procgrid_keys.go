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
	target, ok := selectionTarget(ev, g.sel, max(g.pageRows-1, 0), rows-1)
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
