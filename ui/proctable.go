package ui

import (
	"strconv"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/rivo/tview"
)

// procContent lets a tview.Table draw procList without copying it: cells are
// made only for the rows on screen (the VirtualTable pattern).
type procContent struct {
	tview.TableContentReadOnly
	list *procList
	// cols are the procColumns shown, narrower terminals dropping the least
	// needed so the query text keeps room.
	cols []int
	// stateWidth caps the State column, tighter when the terminal is narrow.
	stateWidth int
	// width is the table's inner width: no cell can show more runes, and
	// tview measures every rune of a cell's text on each draw.
	width int
	// drawn keeps the cells made during one draw, which asks for each cell
	// two or three times (widths, text, background); see procPanel.Draw.
	drawn   map[[2]int]*tview.TableCell
	drawing bool
}

// beginDraw starts a draw's cell cache; endDraw drops it, so a key handled
// between draws never sees a cell of rows that have changed since.
func (c *procContent) beginDraw() {
	if c.drawn == nil {
		c.drawn = make(map[[2]int]*tview.TableCell)
	}
	c.drawing = true
}

func (c *procContent) endDraw() { clear(c.drawn); c.drawing = false }

// Columns shown by terminal width; Query always last so it takes what is left.
var (
	wideColumns = []int{colID, colUser, colHost, colDB, colCmd, colTime, colState, colExamined,
		colCPU, colRead, colWrite, colMem, colQuery}
	mediumColumns = []int{colID, colUser, colHost, colDB, colTime, colState, colExamined, colCPU, colRead, colQuery}
	narrowColumns = []int{colID, colUser, colDB, colTime, colState, colCPU, colQuery}
)

// fitColumns picks the columns for an inner width.
func (c *procContent) fitColumns(width int) {
	c.width = width
	c.stateWidth = procColumns[colState].maxWidth
	switch {
	case width >= 140:
		c.cols = wideColumns
	case width >= 110:
		c.cols = mediumColumns
	default:
		c.cols = narrowColumns
		c.stateWidth = 20
	}
	if c.list.hideThreads {
		c.cols = withoutThreadCols(c.cols)
	}
}

// queryDisplayRunes bounds the query text cut for one table line.
const queryDisplayRunes = 400

// markColumn is the leading column of row markers; data columns follow it.
const markColumn = 0

func (c *procContent) GetRowCount() int    { return len(c.list.rows) + 1 }
func (c *procContent) GetColumnCount() int { return len(c.cols) + 1 }

func (c *procContent) GetCell(row, column int) *tview.TableCell {
	if !c.drawing {
		return c.makeCell(row, column)
	}
	key := [2]int{row, column}
	cell, ok := c.drawn[key]
	if !ok {
		cell = c.makeCell(row, column)
		c.drawn[key] = cell
	}
	return cell
}

func (c *procContent) makeCell(row, column int) *tview.TableCell {
	if row == 0 {
		return c.headerCell(column)
	}
	p := c.list.row(row - 1)
	if p == nil || column < 0 || column > len(c.cols) {
		return nil
	}
	style := rowStyle(p, c.list.highlight[p.ID])
	if column == markColumn {
		return tview.NewTableCell(rowMarks(p, c.list.highlight[p.ID])).SetStyle(style)
	}
	col := c.cols[column-1]
	def := procColumns[col]
	width := def.maxWidth
	if col == colState {
		width = c.stateWidth
	}
	text := ""
	switch {
	case isThreadCol(col):
		text = c.list.threads.threadCellText(p, col)
	case col == colQuery && c.width > 0:
		text = safeLine(p.Info, min(queryDisplayRunes, c.width))
	default:
		text = procCellText(p, col)
	}
	cell := tview.NewTableCell(text).SetStyle(style).SetMaxWidth(width)
	if def.right {
		cell.SetAlign(tview.AlignRight)
	}
	if col == colQuery {
		cell.SetExpansion(1)
	}
	return cell
}

func (c *procContent) headerCell(column int) *tview.TableCell {
	if column < 0 || column > len(c.cols) {
		return nil
	}
	text := ""
	if column > markColumn {
		def := procColumns[c.cols[column-1]]
		text = def.title
		if c.cols[column-1] == c.list.sortCol {
			if c.list.desc {
				text += "▼"
			} else {
				text += "▲"
			}
		}
	}
	cell := tview.NewTableCell(text).SetSelectable(false).
		SetStyle(tcell.StyleDefault.Bold(true).Underline(true))
	if column > markColumn && procColumns[c.cols[column-1]].right {
		cell.SetAlign(tview.AlignRight)
	}
	return cell
}

func procCellText(p *snapshot.Process, col int) string {
	switch col {
	case colID:
		// No separators: a DBA types this id back into KILL.
		return strconv.FormatInt(p.ID, 10)
	case colUser:
		return safeLine(p.User, 64)
	case colHost:
		return safeLine(p.Host, 64)
	case colDB:
		return safeLine(p.DB, 64)
	case colCmd:
		return safeLine(p.Command, 32)
	case colTime:
		return age(time.Duration(p.TimeMS) * time.Millisecond)
	case colState:
		return safeLine(p.State, 64)
	case colExamined:
		if p.ExaminedRows < 0 {
			return "-"
		}
		return commas(p.ExaminedRows)
	default:
		return safeLine(p.Info, queryDisplayRunes)
	}
}

// rowMarks carries in text what colour also shows, for NO_COLOR terminals:
// '*' = thread named by the selected finding, '+' running > 10 s, '!' > 60 s.
func rowMarks(p *snapshot.Process, highlighted bool) string {
	b := []byte{' ', ' '}
	if highlighted {
		b[0] = '*'
	}
	switch runLevel(p) {
	case 2:
		b[1] = '!'
	case 1:
		b[1] = '+'
	}
	return string(b)
}

// runLevel is 0 for idle or short, 1 for > 10 s, 2 for > 60 s of work.
func runLevel(p *snapshot.Process) int {
	if isIdle(p) {
		return 0
	}
	switch {
	case p.TimeMS > verySlowMS:
		return 2
	case p.TimeMS > slowMS:
		return 1
	}
	return 0
}

func rowStyle(p *snapshot.Process, highlighted bool) tcell.Style {
	st := tcell.StyleDefault
	switch runLevel(p) {
	case 2:
		st = st.Foreground(tcell.ColorRed)
	case 1:
		st = st.Foreground(tcell.ColorYellow)
	}
	if highlighted {
		st = st.Bold(true).Underline(true)
	}
	return st
}
