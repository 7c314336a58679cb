package ui

import "github.com/gdamore/tcell/v2"

// handleKey moves the selection among the selectable rows, or the columns,
// for the keys tview's Table took in this panel, and reports whether the
// selected row changed. Every move scrolls to the selection at the next
// draw, as the Table's did. With nothing selectable the Table looped for
// ever on Up, Down, PgUp and PgDn; here they only scroll.
func (g *findingsGrid) handleKey(ev *tcell.EventKey) bool {
	if g.scrollColumns(ev) {
		return false
	}
	target, ok := selectionTarget(ev, g.sel, max(g.pageRows-g.fixed, 0), g.selectable-1)
	if !ok {
		return false
	}
	g.clamp = true
	if g.selectable == 0 {
		return false
	}
	before := g.sel
	g.sel = max(min(target, g.selectable-1), 0)
	return g.sel != before
}
