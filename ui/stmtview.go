package ui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/rivo/tview"
)

// stmtView is the statements view (key S): the top statements of the latest
// digest interval, or of processlist sampling when the server has no
// digests, sortable by every column. It reads the shown frame on every
// draw, so it follows live updates and replay alike.
type stmtView struct {
	*tview.Box
	d       *Dashboard
	sortCol int
	asc     bool
	sel     int
	top     int
	// selKey keeps the selection on the same statement as rows move.
	selKey string
	rows   []snapshot.StatementRate
}

func (d *Dashboard) openStatements() {
	v := &stmtView{Box: newBox(), d: d, sortCol: 1}
	v.SetBorder(true)
	v.refresh()
	var m *modal
	m = &modal{view: v, place: func(x, y, w, h int) (int, int, int, int) {
		return x, y + 2, w, max(0, h-3)
	}, handle: func(ev *tcell.EventKey) bool { return v.handle(ev, m) }}
	d.openModal(m)
}

// stmtKey identifies a row across updates.
func stmtKey(r *snapshot.StatementRate) string {
	return r.Schema + "\x00" + r.Digest + "\x00" + r.Fingerprint
}

// refresh takes the shown frame's rows in the view's order.
func (v *stmtView) refresh() (title string, notes []string) {
	rows, title, notes := v.d.statementRows()
	v.sortRows(rows)
	v.rows = rows
	v.sel = 0
	for i := range rows {
		if stmtKey(&rows[i]) == v.selKey {
			v.sel = i
			break
		}
	}
	if len(rows) > 0 {
		v.selKey = stmtKey(&rows[v.sel])
	}
	return title, notes
}

func (v *stmtView) sortRows(rows []snapshot.StatementRate) {
	less := func(i, j int) bool { return rows[i].Fingerprint < rows[j].Fingerprint }
	if v.sortCol < len(stmtCols) {
		val := stmtCols[v.sortCol].value
		less = func(i, j int) bool {
			a, b := val(&rows[i]), val(&rows[j])
			if a != b {
				return a > b
			}
			return rows[i].Fingerprint < rows[j].Fingerprint
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		if v.asc {
			return less(j, i)
		}
		return less(i, j)
	})
}

func (v *stmtView) Draw(screen tcell.Screen) {
	title, notes := v.refresh()
	v.SetTitle(" " + title + " ")
	v.Box.DrawForSubclass(screen, v)
	x, y, w, h := v.GetInnerRect()
	clearRows(screen, x, y, w, h)
	line := 0
	for _, n := range notes {
		if line < h-1 {
			printLine(screen, "[yellow]"+safeLine(n, 400)+"[-]", x, y+line, w, tview.AlignLeft, textColor)
			line++
		}
	}
	cols := fitStmtCols(w)
	printLine(screen, "[::b]"+v.headerLine(cols, w)+"[::-]", x, y+line, w, tview.AlignLeft, textColor)
	line++
	v.drawRows(screen, cols, x, y+line, w, h-line)
}

// fitStmtCols keeps the leading columns that leave the fingerprint 24 cells.
func fitStmtCols(w int) []int {
	var cols []int
	used := 0
	for i, c := range stmtCols {
		if used+c.width+1+24 > w {
			break
		}
		used += c.width + 1
		cols = append(cols, i)
	}
	return cols
}

func (v *stmtView) headerLine(cols []int, w int) string {
	var b strings.Builder
	for _, i := range cols {
		fmt.Fprintf(&b, "%*s ", stmtCols[i].width, v.mark(i)+stmtCols[i].title)
	}
	b.WriteString(v.mark(stmtSortFingerprint) + "fingerprint")
	return safeLine(b.String(), w)
}

func (v *stmtView) mark(col int) string {
	switch {
	case col != v.sortCol:
		return ""
	case v.asc:
		return "▲"
	default:
		return "▼"
	}
}

func (v *stmtView) drawRows(screen tcell.Screen, cols []int, x, y, w, h int) {
	if len(v.rows) == 0 {
		printLine(screen, "[gray](no statements ran in this interval)[-]", x, y, w, tview.AlignLeft, textColor)
		return
	}
	v.top = max(0, min(v.top, v.sel), v.sel-h+1)
	for i := 0; i < h && v.top+i < len(v.rows); i++ {
		r := &v.rows[v.top+i]
		var b strings.Builder
		for _, c := range cols {
			col := stmtCols[c]
			fmt.Fprintf(&b, "%*s ", col.width, col.text(col.value(r)))
		}
		b.WriteString(safeLine(r.Fingerprint, 2000))
		style := tcell.StyleDefault
		if v.top+i == v.sel {
			style = style.Reverse(true)
		} else if r.NoIndexUsed {
			style = style.Foreground(tcell.ColorYellow)
		}
		printStyled(screen, b.String(), x, y+i, w, style)
	}
}

// printStyled writes plain text (no tags) in one style, clipped to w.
func printStyled(screen tcell.Screen, s string, x, y, w int, style tcell.Style) {
	col := 0
	for _, r := range s {
		if col >= w {
			break
		}
		screen.SetContent(x+col, y, r, nil, style)
		col++
	}
	for ; col < w; col++ {
		screen.SetContent(x+col, y, ' ', nil, style)
	}
}

// handle takes every key while the view is open; true closes it.
func (v *stmtView) handle(ev *tcell.EventKey, self *modal) bool {
	v.refresh() // the frame may have moved since the last draw
	if cursorKey(ev, len(v.rows), v.move) {
		return false
	}
	switch ev.Key() {
	case tcell.KeyEscape:
		return true
	case tcell.KeyEnter:
		v.open(self, false)
	case tcell.KeyRune:
		return v.handleRune(ev.Rune(), self)
	}
	return false
}

func (v *stmtView) handleRune(r rune, self *modal) bool {
	switch r {
	case 'q', 'S':
		return true
	case '<':
		v.sortCol = (v.sortCol + len(stmtCols)) % (len(stmtCols) + 1)
	case '>':
		v.sortCol = (v.sortCol + 1) % (len(stmtCols) + 1)
	case 'r':
		v.asc = !v.asc
	case 'e':
		v.open(self, true)
	}
	return false
}

func (v *stmtView) move(n int) {
	if len(v.rows) == 0 {
		return
	}
	v.sel = max(0, min(len(v.rows)-1, v.sel+n))
	v.selKey = stmtKey(&v.rows[v.sel])
}

// selected is the statement under the cursor, or nil.
func (v *stmtView) selected() *snapshot.StatementRate {
	if v.sel < 0 || v.sel >= len(v.rows) {
		return nil
	}
	r := v.rows[v.sel]
	return &r
}
