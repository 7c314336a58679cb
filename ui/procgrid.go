package ui

import "github.com/gdamore/tcell/v2"

// procGrid draws the processlist: a fixed header row over the rows that fit,
// one of them selected. It replaces tview's Table, which stepped every rune of
// every cell through Unicode segmentation several times a draw, and keeps
// its look cell for cell (TestProcGridMatchesTviewTable) and its keys.
type procGrid struct {
	content *procContent
	// gridView's sel is a row of content.list, its offset the first row
	// shown under the header, and its pageRows count the header.
	gridView
}

func (g *procGrid) draw(screen tcell.Screen, x, y, w, h int) {
	if w <= 0 || h <= 0 {
		return
	}
	g.sel = max(g.sel, 0)
	g.scroll(h)
	g.collect(h)
	g.drawRows(screen, g.content.columnCount(), x, y, w, h)
	if row := g.sel - g.offset + 1; row >= 1 && row < len(g.shown) {
		g.reverseRow(screen, x, y+row, w)
	}
}

// scroll moves offset so the selection is on screen (if it just moved) and
// no blank is left below the last row while rows are hidden above.
func (g *procGrid) scroll(h int) {
	rows := len(g.content.list.rows)
	if g.clamp {
		g.clamp = false
		if g.sel < g.offset {
			g.offset = g.sel
		}
		if g.sel+2-g.offset >= h {
			g.offset = g.sel + 2 - h
		}
	}
	if rows+1-g.offset < h {
		g.offset = rows + 1 - h
	}
	g.offset = max(g.offset, 0)
	g.pageRows = h
}

// collect makes the cells of the header and of the rows that fit under it.
func (g *procGrid) collect(h int) {
	c := g.content
	n := c.columnCount()
	g.shown = g.shown[:0]
	g.shown = append(g.shown, g.rowCells(len(g.shown), n))
	for i := 0; i < n; i++ {
		g.shown[0][i] = c.header(i)
	}
	for i := g.offset; i < len(c.list.rows) && len(g.shown) < h; i++ {
		cells := g.rowCells(len(g.shown), n)
		for col := 0; col < n; col++ {
			cells[col] = c.cell(i, col)
		}
		g.shown = append(g.shown, cells)
	}
}
