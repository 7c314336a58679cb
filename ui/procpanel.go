package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/rivo/tview"
)

// procPanel is the bordered processlist: a procGrid over procList, with
// the list's state in the title and the reason shown when there is no list.
type procPanel struct {
	*tview.Box
	grid    *procGrid
	content *procContent
	list    *procList
	// missing explains an empty processlist ("n/a: ..."), or "".
	missing string
	// stale says the list was carried from an earlier tick, or "".
	stale string
	// cadence says the full list is read less often than every tick, or
	// "", and cadenceAge how old this frame's carried rows are.
	cadence, cadenceAge string
	// selectedID follows the selected thread across refreshes and re-sorts.
	selectedID int64
}

func newProcPanel(list *procList) *procPanel {
	p := &procPanel{Box: newBox(), list: list, content: &procContent{list: list}}
	p.grid = &procGrid{content: p.content}
	p.SetBorder(true).SetTitleAlign(tview.AlignLeft)
	p.content.fitColumns(200)
	return p
}

// set shows rows, the processlist of s or the last one read (see
// Dashboard.processlistFrame), with s's state of the source.
func (p *procPanel) set(s *snapshot.Snapshot, rows []snapshot.Process) {
	p.missing = ""
	p.stale = staleNote(s, snapshot.CollectorProcesslist)
	p.cadence, p.cadenceAge = cadenceNote(s)
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
	i := p.list.indexOf(p.selectedID)
	if i < 0 {
		i = max(0, min(p.grid.sel, len(p.list.rows)-1))
	}
	p.grid.selectRow(i)
	p.followSelection()
}

// followSelection notes the selected thread, to find it again in the next
// rows.
func (p *procPanel) followSelection() {
	if r := p.list.row(p.grid.sel); r != nil {
		p.selectedID = r.ID
	}
}

// selected returns the selected process, or nil.
func (p *procPanel) selected() *snapshot.Process {
	return p.list.row(p.grid.sel)
}

func (p *procPanel) Draw(screen tcell.Screen) {
	_, _, w0, _ := p.GetRect()
	p.SetTitle(p.list.describe(w0, p.stale, p.cadence, p.cadenceAge))
	x, y, w, h := p.GetInnerRect()
	// The grid clears the inside itself: the box only draws the frame.
	p.Box.DrawForSubclass(skipFill{screen, rect{x, y, w, h}}, p)
	p.content.fitColumns(w)
	p.grid.draw(screen, x, y, w, h)
	if p.missing != "" && h > 1 {
		printLine(screen, p.missing, x, y+1, w, tview.AlignLeft, tcell.ColorGray)
	}
}

func (p *procPanel) InputHandler() func(*tcell.EventKey, func(tview.Primitive)) {
	return func(ev *tcell.EventKey, _ func(tview.Primitive)) {
		if p.grid.handleKey(ev) {
			p.followSelection()
		}
	}
}
