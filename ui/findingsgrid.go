package ui

import "github.com/gdamore/tcell/v2"

// findingsGrid draws the findings list as tview's Table did, cell for cell
// (TestFindingsGridMatchesTviewTable), without its Unicode segmentation of
// every rune: the findings first, the first of them fixed on top, then the
// rows that cannot be selected ("no findings", the rules that cannot run).
type findingsGrid struct {
	rows [][]gridCell
	// selectable is how many rows, from the top, can be selected.
	selectable int
	// fixed rows stay on top however far the list scrolls; gridView's
	// offset is the rows skipped under them.
	fixed int
	// trackEnd keeps the list's end in view, as tview's Table did once the
	// rows no longer filled the panel, until the selection moves the view.
	trackEnd bool
	gridView
}

// setRows shows rows, the first selectable of them selectable, from the
// top with the first row selected.
func (g *findingsGrid) setRows(rows [][]gridCell, selectable, fixed int) {
	g.rows, g.selectable, g.fixed = rows, selectable, fixed
	g.offset, g.colOffset, g.trackEnd = 0, 0, false
	g.selectRow(0)
}

func (g *findingsGrid) draw(screen tcell.Screen, x, y, w, h int) {
	if w <= 0 || h <= 0 {
		return
	}
	if g.sel >= g.selectable {
		g.sel = len(g.rows) // tview's Table looked for a selectable row past the end
	}
	g.scroll(h)
	g.collect(h)
	g.drawRows(screen, g.columnCount(), x, y, w, h)
	if row := g.shownRow(); row >= 0 {
		g.reverseRow(screen, x, y+row, w)
	}
}

// scroll moves offset as tview's Table did: to the selection once it
// moved, and to the end once the rows left a blank below.
func (g *findingsGrid) scroll(h int) {
	if g.clamp {
		g.clamp = false
		if g.sel >= g.fixed && g.sel < g.fixed+g.offset {
			g.offset, g.trackEnd = g.sel-g.fixed, false
		}
		if g.sel+1-g.offset >= h {
			g.offset, g.trackEnd = g.sel+1-h, false
		}
	}
	g.offset = max(g.offset, 0)
	if len(g.rows)-g.offset < h {
		g.trackEnd = true
	}
	if g.trackEnd {
		g.offset = max(len(g.rows)-h, 0)
	}
	g.pageRows = h
}

// collect puts the fixed rows, then the rows from offset, as many as fit.
func (g *findingsGrid) collect(h int) {
	g.shown = g.shown[:0]
	for i := 0; i < g.fixed && i < len(g.rows) && len(g.shown) < h; i++ {
		g.shown = append(g.shown, g.rows[i])
	}
	for i := g.fixed + g.offset; i < len(g.rows) && len(g.shown) < h; i++ {
		g.shown = append(g.shown, g.rows[i])
	}
}

// shownRow is the screen row of the selection, or -1 when it is not shown.
func (g *findingsGrid) shownRow() int {
	if g.sel >= g.selectable {
		return -1
	}
	if g.sel < g.fixed {
		return min(g.sel, len(g.shown)-1)
	}
	if row := g.sel - g.offset; row >= g.fixed && row < len(g.shown) {
		return row
	}
	return -1
}

// columnCount is the longest row's: a lone "no findings" has one column.
func (g *findingsGrid) columnCount() int {
	n := 0
	for _, r := range g.rows {
		n = max(n, len(r))
	}
	return n
}
