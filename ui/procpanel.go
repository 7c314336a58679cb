package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/rivo/tview"
)

// procPanel is the bordered processlist: a tview.Table over procList, with
// the list's state in the title and the reason shown when there is no list.
type procPanel struct {
	*tview.Box
	table   *tview.Table
	content *procContent
	list    *procList
	// missing explains an empty processlist ("n/a: ..."), or "".
	missing string
	// stale says the list was carried from an earlier tick, or "".
	stale string
	// selectedID follows the selected thread across refreshes and re-sorts.
	selectedID int64
}

func newProcPanel(list *procList) *procPanel {
	p := &procPanel{Box: newBox(), table: newTable(), list: list, content: &procContent{list: list}}
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

// set shows rows, the processlist of s or the last one read (see
// Dashboard.shownProcesslist), with s's state of the source.
func (p *procPanel) set(s *snapshot.Snapshot, rows []snapshot.Process) {
	p.missing = ""
	p.stale = staleNote(s, snapshot.CollectorProcesslist)
	if len(rows) == 0 {
		if reason := unavailable(s, snapshot.CollectorProcesslist); reason != "" {
			p.missing = naLine(s, snapshot.CollectorProcesslist, "")
		}
	}
	p.list.set(rows)
	p.reselect()
}

// reselect keeps the same thread selected after the rows changed.
func (p *procPanel) reselect() {
	if i := p.list.indexOf(p.selectedID); i >= 0 {
		p.table.Select(i+1, 0)
		return
	}
	row, _ := p.table.GetSelection()
	row = max(1, min(row, len(p.list.rows)))
	p.table.Select(row, 0)
}

// selected returns the selected process, or nil.
func (p *procPanel) selected() *snapshot.Process {
	row, _ := p.table.GetSelection()
	return p.list.row(row - 1)
}

func (p *procPanel) Draw(screen tcell.Screen) {
	_, _, w0, _ := p.GetRect()
	p.SetTitle(p.list.describe(w0, p.stale))
	x, y, w, h := p.GetInnerRect()
	// The table clears the inside itself: the box only draws the frame.
	p.Box.DrawForSubclass(skipFill{screen, rect{x, y, w, h}}, p)
	p.content.fitColumns(w)
	p.table.SetRect(x, y, w, h)
	p.content.beginDraw()
	p.table.Draw(screen)
	p.content.endDraw()
	if p.missing != "" && h > 1 {
		printLine(screen, p.missing, x, y+1, w, tview.AlignLeft, tcell.ColorGray)
	}
}

func (p *procPanel) Focus(delegate func(tview.Primitive)) {
	p.Box.Focus(delegate)
	p.table.Focus(delegate)
}

func (p *procPanel) Blur() {
	p.table.Blur()
	p.Box.Blur()
}

func (p *procPanel) InputHandler() func(*tcell.EventKey, func(tview.Primitive)) {
	return p.table.InputHandler()
}
