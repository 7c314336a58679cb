package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// Fleet is the first screen when several servers are monitored: one line per
// server, worst first; Enter opens that server's own dashboard and Esc comes
// back. Each server keeps its own Dashboard, fed while hidden, so opening one
// shows its sparklines and findings at once. All methods run on the UI goroutine.
type Fleet struct {
	*tview.Box
	app    *tview.Application
	names  []string
	dashes map[string]*Dashboard
	latest map[string]*snapshot.Frame
	rows   []fleetRow
	table  *tview.Table
	open   string // the server whose dashboard is shown; "" for the fleet
	// moved is set once the user moves the selection; until then the worst
	// server (the top row) stays selected as the rows reorder.
	moved   bool
	status  string
	lastNow time.Time
	// tells carries lines from Tell to the UI goroutine.
	tells chan string
}

// ServerFrame is one frame of one server of the fleet.
type ServerFrame struct {
	Server string
	Frame  *snapshot.Frame
}

// NewFleet builds the view over names; opts gives each server's dashboard
// options (its own KILL and EXPLAIN connection).
func NewFleet(names []string, opts func(server string) Options) *Fleet {
	fl := &Fleet{Box: newBox(), names: names, dashes: map[string]*Dashboard{},
		latest: map[string]*snapshot.Frame{}, table: newTable(), tells: make(chan string, 1)}
	fl.table.SetSelectable(true, false).SetSelectedStyle(tcell.StyleDefault.Reverse(true))
	fl.table.SetFixed(1, 0)
	for _, n := range names {
		fl.dashes[n] = New(opts(n))
	}
	fl.refresh()
	return fl
}

// Update takes a server's new frame.
func (fl *Fleet) Update(server string, f *snapshot.Frame) {
	d := fl.dashes[server]
	if d == nil || f == nil || f.Snapshot == nil {
		return
	}
	d.Update(f)
	fl.latest[server] = f
	if t := f.Time(); t.After(fl.lastNow) {
		fl.lastNow = t
	}
	fl.refresh()
}

// Open shows server's dashboard ("" shows the fleet).
func (fl *Fleet) Open(server string) {
	if server != "" && fl.dashes[server] == nil {
		return
	}
	fl.open = server
}

// Opened is the server whose dashboard is shown, "" for the fleet view.
func (fl *Fleet) Opened() string { return fl.open }

// refresh rebuilds the rows, keeping the selected server selected.
func (fl *Fleet) refresh() {
	keep := fl.selected()
	fl.rows = fl.rows[:0]
	for _, n := range fl.names {
		fl.rows = append(fl.rows, newFleetRow(n, fl.latest[n]))
	}
	sortFleet(fl.rows)
	fl.table.Clear()
	for c, h := range fleetColumns {
		fl.table.SetCell(0, c, cell("[::b]"+h).SetSelectable(false).SetExpansion(expansionOf(c)))
	}
	sel := 1
	for i, r := range fl.rows {
		for c, v := range r.cells() {
			tc := cell(safeLine(v, 60)).SetExpansion(expansionOf(c))
			if c == fleetFindingCol && r.worst != nil {
				_, color := severityLabel(r.worst.Severity)
				tc.SetTextColor(color)
			}
			fl.table.SetCell(i+1, c, tc)
		}
		if fl.moved && r.name == keep {
			sel = i + 1
		}
	}
	fl.table.Select(sel, 0)
}

// The server and finding columns take the spare width.
func expansionOf(col int) int {
	if col == 0 || col == fleetFindingCol {
		return 1
	}
	return 0
}

func (fl *Fleet) selected() string {
	row, _ := fl.table.GetSelection()
	if row < 1 || row > len(fl.rows) {
		return ""
	}
	return fl.rows[row-1].name
}

// Draw shows the open dashboard, or the fleet: a header line, the table, a footer.
func (fl *Fleet) Draw(screen tcell.Screen) {
	x, y, w, h := fl.GetRect()
	if d := fl.dashes[fl.open]; d != nil {
		d.root.SetRect(x, y, w, h)
		d.root.Draw(screen)
		return
	}
	screen = withASCIICells(screen)
	clearRows(screen, x, y, w, h)
	printLine(screen, fl.header(w), x, y, w, tview.AlignLeft, textColor)
	fl.table.SetRect(x, y+1, w, h-2)
	fl.table.Draw(screen)
	foot := "↑↓ select  Enter open  Esc back  q quit"
	if fl.status != "" {
		foot = fl.status
	}
	printLine(screen, tview.Escape(foot), x, y+h-1, w, tview.AlignLeft, textColor)
}

func (fl *Fleet) header(w int) string {
	crit, warn, down := fl.counts()
	items := []item{
		{"[::b]mytop-go fleet[::-]", 9},
		{fmt.Sprintf("%d servers", len(fl.names)), 8},
		{fmt.Sprintf("%d critical, %d warning", crit, warn), 10},
		{fmt.Sprintf("%d down", down), 7},
	}
	if senders := fl.flowControlSenders(); len(senders) > 0 {
		items = append(items, item{"[::b]FC sent by " + tview.Escape(strings.Join(senders, ", ")) + "[::-]", 9})
	}
	if !fl.lastNow.IsZero() {
		items = append(items, item{"LIVE " + fl.lastNow.Format("15:04:05"), 6})
	}
	return fit(items, w)
}

// flowControlSenders names the Galera nodes of the fleet that hold their
// cluster back this interval: each node alone can only say it is paused.
func (fl *Fleet) flowControlSenders() []string {
	var nodes []infer.NodeFrame
	for _, n := range fl.names {
		nodes = append(nodes, infer.NodeFrame{Name: n, Frame: fl.latest[n]})
	}
	return infer.FlowControlSenders(nodes)
}

func (fl *Fleet) counts() (crit, warn, down int) { return fleetCounts(fl.rows) }

// InputHandler routes keys to the open dashboard; Esc there, when it has
// nothing of its own to close, comes back to the fleet.
func (fl *Fleet) InputHandler() func(*tcell.EventKey, func(tview.Primitive)) {
	return fl.WrapInputHandler(func(ev *tcell.EventKey, setFocus func(tview.Primitive)) {
		if d := fl.dashes[fl.open]; d != nil {
			if ev.Key() == tcell.KeyEscape && d.modal == nil && d.list.filter.empty() {
				fl.open = ""
				return
			}
			d.handleKey(ev)
			return
		}
		switch {
		case ev.Key() == tcell.KeyEnter:
			fl.open = fl.selected()
		case ev.Key() == tcell.KeyCtrlC || (ev.Key() == tcell.KeyRune && ev.Rune() == 'q'):
			fl.quit()
		default:
			fl.moved = true
			if h := fl.table.InputHandler(); h != nil {
				h(ev, setFocus)
			}
		}
	})
}

func (fl *Fleet) quit() {
	if fl.app != nil {
		fl.app.Stop()
	}
}

// DrawOn draws the fleet (or the open dashboard) onto a new SimulationScreen.
func (fl *Fleet) DrawOn(width, height int) tcell.SimulationScreen {
	screen := tcell.NewSimulationScreen("UTF-8")
	_ = screen.Init()
	screen.SetSize(width, height)
	fl.SetRect(0, 0, width, height)
	fl.Draw(screen)
	screen.Show()
	return screen
}
