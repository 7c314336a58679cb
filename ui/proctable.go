package ui

import (
	"strconv"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
)

// procContent is what the processlist shows of procList: the columns that
// fit the width and the text and style of each cell on screen.
type procContent struct {
	list *procList
	// cols are the procColumns shown, narrower terminals dropping the least
	// needed so the query text keeps room.
	cols []int
	// stateWidth caps the State column, tighter when the terminal is narrow.
	stateWidth int
	// width is the panel's inner width: no cell can show more runes, and a
	// longer query would only cost its measuring.
	width int
}

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

// columnCount counts the marks column and the data columns.
func (c *procContent) columnCount() int { return len(c.cols) + 1 }

// cell is data row i's cell in column (markColumn, then c.cols).
func (c *procContent) cell(i, column int) gridCell {
	p := c.list.row(i)
	highlighted := c.list.highlight[p.ID]
	style := rowStyle(p, highlighted)
	if column == markColumn {
		return gridCell{text: rowMarks(p, highlighted), style: style}
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
	return gridCell{text: text, style: style, maxWidth: width, right: def.right, expand: col == colQuery}
}

// headerStyle marks the header row.
var headerStyle = tcell.StyleDefault.Bold(true).Underline(true)

// header is the header row's cell in column, the sort column's title
// carrying the order's arrow.
func (c *procContent) header(column int) gridCell {
	if column == markColumn {
		return gridCell{style: headerStyle}
	}
	col := c.cols[column-1]
	text := procColumns[col].title
	if col == c.list.sortCol {
		if c.list.desc {
			text += "▼"
		} else {
			text += "▲"
		}
	}
	return gridCell{text: text, style: headerStyle, right: procColumns[col].right}
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
	marks := [2][3]string{{"  ", " +", " !"}, {"* ", "*+", "*!"}}
	h := 0
	if highlighted {
		h = 1
	}
	return marks[h][runLevel(p)]
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
