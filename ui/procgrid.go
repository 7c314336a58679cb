package ui

import "github.com/gdamore/tcell/v2"

// procGrid draws the processlist: a fixed header row over the rows that fit,
// one of them selected. It replaces tview's Table, which stepped every rune of
// every cell through Unicode segmentation several times a draw, and keeps
// its look cell for cell (TestProcGridMatchesTviewTable) and its keys.
type procGrid struct {
	content *procContent
	// sel is the selected row of content.list; offset the first row shown
	// under the header, colOffset the first column shown (Left/Right).
	sel, offset, colOffset int
	// clamp scrolls the next draw to the selection, once: after the
	// selection moved, not on every draw, so the view holds still while the
	// DBA reads it, as tview's Table did.
	clamp bool
	// pageRows is the rows a draw showed, header included: the page keys'
	// step.
	pageRows int
	// shown are the rows' cells of this draw, kept between draws to spare
	// their allocation.
	shown [][]procCell
	cols  []gridColumn
}

// gridColumn is a content column as laid out on screen.
type gridColumn struct{ index, width, expand int }

// separatorStyle is the blank between two columns: tview's Table wrote it
// in its border colour, white.
var separatorStyle = tcell.StyleDefault.Foreground(tcell.ColorWhite)

// selectedStyle is how the selected row is told apart.
var selectedStyle = tcell.StyleDefault.Reverse(true)

// selectRow selects row i and brings it on screen at the next draw.
func (g *procGrid) selectRow(i int) {
	g.sel = i
	g.clamp = true
}

func (g *procGrid) draw(screen tcell.Screen, x, y, w, h int) {
	if w <= 0 || h <= 0 {
		return
	}
	g.sel = max(g.sel, 0)
	g.scroll(h)
	g.collect(h)
	g.layout(w)
	g.drawCells(screen, x, y, w)
	clearRect(screen, x, y+len(g.shown), w, h-len(g.shown))
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

// rowCells reuses the cells of row's slot from an earlier draw.
func (g *procGrid) rowCells(row, n int) []procCell {
	if row < cap(g.shown) {
		if cells := g.shown[:row+1][row]; cap(cells) >= n {
			return cells[:n]
		}
	}
	return make([]procCell, n)
}

// drawCells puts the columns left to right, each row's separator before its
// text as tview did: a wide rune cut at a column's edge covers the blank.
// Every cell of the shown rows is written once: the columns fill theirs,
// and the blank right of the last column is cleared.
func (g *procGrid) drawCells(screen tcell.Screen, x, y, w int) {
	end := g.tableWidth() - 1
	for row := range g.shown {
		blank(screen, x+end, y+row, w-end)
	}
	colX := 0
	for i, col := range g.cols {
		width := min(col.width, w-colX)
		for row, cells := range g.shown {
			if i < len(g.cols)-1 {
				screen.SetContent(x+colX+col.width, y+row, ' ', nil, separatorStyle)
			}
			cell := cells[col.index]
			printCell(screen, cell.text, x+colX, y+row, width, cell.right, cell.style)
		}
		colX += col.width + 1
	}
}

// reverseRow shows the selection over the columns' cells and separators,
// in the terminal's colours reversed, keeping only an underline.
func (g *procGrid) reverseRow(screen tcell.Screen, x, y, w int) {
	for i := x; i < x+min(g.tableWidth(), w); i++ {
		m, c, st, _ := screen.GetContent(i, y)
		_, _, attrs := selectedStyle.Decompose()
		st = st.Foreground(tcell.ColorDefault).Background(tcell.ColorDefault).Attributes(attrs)
		screen.SetContent(i, y, m, c, st)
	}
}

// tableWidth is the columns' cells with a blank after each.
func (g *procGrid) tableWidth() int {
	n := 0
	for _, col := range g.cols {
		n += col.width + 1
	}
	return n
}

// clearRect blanks w×h cells from x, y.
func clearRect(screen tcell.Screen, x, y, w, h int) {
	for row := y; row < y+h; row++ {
		for col := x; col < x+w; col++ {
			screen.SetContent(col, row, ' ', nil, tcell.StyleDefault)
		}
	}
}
