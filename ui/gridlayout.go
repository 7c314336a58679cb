package ui

import "github.com/gdamore/tcell/v2"

// layout picks the columns of n that fit in w and their widths, as tview's Table
// did: each column as wide as its widest shown cell (within the cell's
// maxWidth), one blank after each, the last one cut at the edge; from
// colOffset on, or, when those leave room, as many of the last columns as
// fit; the room still left goes to the expanding column (Query,
// a finding's title).
func (g *gridView) layout(n, w int) {
	g.colOffset = max(min(g.colOffset, n-1), 0)
	g.cols = g.cols[:0]
	used, stop := g.addColumns(g.colOffset, n, 1, w)
	if stop < 0 && g.colOffset > 0 && used < w {
		g.cols = g.cols[:0]
		used = g.fillFromEnd(n, w)
	}
	g.expand(w - used)
}

// addColumns lays out columns from, from+step, ... up to (not with) to
// while room is left; it returns the width used and the first column left
// out, or -1.
func (g *gridView) addColumns(from, to, step, w int) (used, stop int) {
	for col := from; col != to; col += step {
		if used >= w {
			return used, col
		}
		width, expand := g.natural(col)
		width = min(width, w-used)
		g.cols = append(g.cols, gridColumn{index: col, width: width, expand: expand})
		used += width + 1
	}
	return used, -1
}

// fillFromEnd lays out the last columns that fit and moves colOffset to
// the first of them.
func (g *gridView) fillFromEnd(n, w int) int {
	used, stop := g.addColumns(n-1, -1, -1, w)
	for i, j := 0, len(g.cols)-1; i < j; i, j = i+1, j-1 {
		g.cols[i], g.cols[j] = g.cols[j], g.cols[i]
	}
	g.colOffset = stop + 1
	return used
}

// natural is a column's width over the shown cells and whether it expands.
func (g *gridView) natural(col int) (width, expand int) {
	for _, cells := range g.shown {
		c := cells[col]
		cw := textWidth(c.text)
		if c.maxWidth > 0 && c.maxWidth < cw {
			cw = c.maxWidth
		}
		width = max(width, cw)
		if c.expand {
			expand = 1
		}
	}
	return width, expand
}

// expand shares room among the expanding columns by their weight.
func (g *gridView) expand(room int) {
	if room <= 0 {
		return
	}
	total := 0
	for _, c := range g.cols {
		total += c.expand
	}
	for i := range g.cols {
		if total <= 0 {
			return
		}
		share := room * g.cols[i].expand / total
		g.cols[i].width += share
		room -= share
		total -= g.cols[i].expand
	}
}

// scrollColumns takes Left/Right and l (h is a dashboard key and never
// reaches here); the next layout bounds the offset.
func (g *gridView) scrollColumns(ev *tcell.EventKey) bool {
	switch {
	case ev.Key() == tcell.KeyLeft || ev.Key() == tcell.KeyRune && ev.Rune() == 'h':
		g.colOffset--
	case ev.Key() == tcell.KeyRight || ev.Key() == tcell.KeyRune && ev.Rune() == 'l':
		g.colOffset++
	default:
		return false
	}
	return true
}
