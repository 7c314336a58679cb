package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/rivo/tview"
)

// tviewProcPanel is the processlist panel as it was before procGrid: a
// tview.Table over the list. It stays here only as the reference the grid
// is held to, cell for cell, and as the cost it is measured against.
type tviewProcPanel struct {
	*tview.Box
	table      *tview.Table
	content    *tviewProcContent
	list       *procList
	selectedID int64
}

func newTviewProcPanel(list *procList) *tviewProcPanel {
	p := &tviewProcPanel{Box: newBox(), table: newTable(), list: list,
		content: &tviewProcContent{procContent: &procContent{list: list}}}
	p.SetBorder(true).SetTitleAlign(tview.AlignLeft)
	p.content.fitColumns(200)
	p.table.SetContent(p.content).SetFixed(1, 0).SetSelectable(true, false).
		SetSelectedStyle(tcell.StyleDefault.Reverse(true))
	p.table.SetSelectionChangedFunc(func(row, _ int) {
		if r := list.row(row - 1); r != nil {
			p.selectedID = r.ID
		}
	})
	return p
}

func (p *tviewProcPanel) reselect() {
	if i := p.list.indexOf(p.selectedID); i >= 0 {
		p.table.Select(i+1, 0)
		return
	}
	row, _ := p.table.GetSelection()
	row = max(1, min(row, len(p.list.rows)))
	p.table.Select(row, 0)
}

func (p *tviewProcPanel) selected() *snapshot.Process {
	row, _ := p.table.GetSelection()
	return p.list.row(row - 1)
}

func (p *tviewProcPanel) Draw(screen tcell.Screen) {
	_, _, w0, _ := p.GetRect()
	p.SetTitle(p.list.describe(w0, "", "", ""))
	x, y, w, h := p.GetInnerRect()
	p.Box.DrawForSubclass(skipFill{screen, rect{x, y, w, h}}, p)
	p.content.fitColumns(w)
	p.table.SetRect(x, y, w, h)
	p.content.beginDraw()
	p.table.Draw(screen)
	p.content.endDraw()
}

// tviewProcContent is the former procContent's tview.TableContent: cells
// made for the rows on screen, cached for one draw.
type tviewProcContent struct {
	tview.TableContentReadOnly
	*procContent
	drawn   map[[2]int]*tview.TableCell
	drawing bool
}

func (c *tviewProcContent) beginDraw() {
	if c.drawn == nil {
		c.drawn = make(map[[2]int]*tview.TableCell)
	}
	c.drawing = true
}

func (c *tviewProcContent) endDraw() { clear(c.drawn); c.drawing = false }

func (c *tviewProcContent) GetRowCount() int    { return len(c.list.rows) + 1 }
func (c *tviewProcContent) GetColumnCount() int { return len(c.cols) + 1 }

func (c *tviewProcContent) GetCell(row, column int) *tview.TableCell {
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

func (c *tviewProcContent) makeCell(row, column int) *tview.TableCell {
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

func (c *tviewProcContent) headerCell(column int) *tview.TableCell {
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
