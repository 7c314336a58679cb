package ui

import "github.com/gdamore/tcell/v2"

// gridView is the part of a grid the processlist and the findings share:
// the rows a draw shows, their columns as laid out, and the drawing of both
// as tview's Table drew them.
type gridView struct {
	// shown are the rows' cells of this draw, kept between draws to spare
	// their allocation.
	shown [][]gridCell
	cols  []gridColumn
	// colOffset is the first column shown (Left/Right).
	colOffset int
	// sel is the selected row; offset the rows scrolled past.
	sel, offset int
	// clamp scrolls the next draw to the selection, once: after the
	// selection moved, not on every draw, so the view holds still while the
	// DBA reads it, as tview's Table did.
	clamp bool
	// pageRows is the rows the last draw showed: the page keys' step.
	pageRows int
}

// gridCell is one cell of a grid: the processlist's or the findings'.
type gridCell struct {
	text  string
	style tcell.Style
	// maxWidth > 0 caps the column this cell asks for.
	maxWidth int
	right    bool
	// expand: the column takes the width no other column needs.
	expand bool
	// tagged text holds the panel's own tview style tags (the findings'
	// "no findings" and caused-by markup), which only tview can print.
	tagged bool
}

// selectRow selects row i and brings it on screen at the next draw.
func (g *gridView) selectRow(i int) {
	g.sel = i
	g.clamp = true
}

// gridColumn is a content column as laid out on screen.
type gridColumn struct{ index, width, expand int }

// separatorStyle is the blank between two columns: tview's Table wrote it
// in its border colour, white.
var separatorStyle = tcell.StyleDefault.Foreground(tcell.ColorWhite)

// selectedStyle is how the selected row is told apart.
var selectedStyle = tcell.StyleDefault.Reverse(true)

// rowCells reuses the cells of row's slot from an earlier draw.
func (g *gridView) rowCells(row, n int) []gridCell {
	if row < cap(g.shown) {
		if cells := g.shown[:row+1][row]; cap(cells) >= n {
			return cells[:n]
		}
	}
	return make([]gridCell, n)
}

// drawRows lays out the shown rows in w and fills w×h with them, blank
// below the last.
func (g *gridView) drawRows(screen tcell.Screen, n, x, y, w, h int) {
	g.layout(n, w)
	g.drawCells(screen, x, y, w)
	clearRows(screen, x, y+len(g.shown), w, h-len(g.shown))
}

// drawCells puts the columns left to right, each row's separator before its
// text as tview did: a wide rune cut at a column's edge covers the blank.
// Every cell of the shown rows is written once: the columns fill theirs,
// and the blank right of the last column is cleared.
func (g *gridView) drawCells(screen tcell.Screen, x, y, w int) {
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
			cells[col.index].print(screen, x+colX, y+row, width)
		}
		colX += col.width + 1
	}
}

// reverseRow shows the selection over the columns' cells and separators,
// in the terminal's colours reversed, keeping only an underline.
func (g *gridView) reverseRow(screen tcell.Screen, x, y, w int) {
	for i := x; i < x+min(g.tableWidth(), w); i++ {
		m, c, st, _ := screen.GetContent(i, y)
		_, _, attrs := selectedStyle.Decompose()
		st = st.Foreground(tcell.ColorDefault).Background(tcell.ColorDefault).Attributes(attrs)
		screen.SetContent(i, y, m, c, st)
	}
}

// tableWidth is the columns' cells with a blank after each.
func (g *gridView) tableWidth() int {
	n := 0
	for _, col := range g.cols {
		n += col.width + 1
	}
	return n
}
