package ui

import (
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/rivo/tview"
)

// root is the primitive tview sees: it lays the panels out for the current
// size on every draw, draws an open modal on top, and routes all keys
// through Dashboard.handleKey.
type root struct {
	*tview.Box
	d *Dashboard
}

// Draw does not clear the whole screen first: the panels tile it and clear
// their own areas, and a full clear was a third of the cost of a frame.
func (r *root) Draw(screen tcell.Screen) {
	x, y, w, h := r.GetRect()
	r.d.screen = screen
	r.d.draw(screen, x, y, w, h)
}

func (r *root) InputHandler() func(*tcell.EventKey, func(tview.Primitive)) {
	return r.WrapInputHandler(func(ev *tcell.EventKey, _ func(tview.Primitive)) {
		r.d.handleKey(ev)
	})
}

// Sizes of the layout.
const (
	// Side panels need this much room; below it they collapse into the header lines.
	panelsMinWidth  = 120
	panelsMinHeight = 36
	panelsHeight    = 11
	// The processlist keeps at least this many lines (with borders).
	procMinHeight = 6
	statusSeconds = 6
)

// regions is where each part goes at one screen size.
type regions struct {
	findings, procs, panels rect
	timelineY, footerY      int
	showPanels              bool
}

type rect struct{ x, y, w, h int }

func (d *Dashboard) layout(x, y, w, h int) regions {
	var g regions
	bottom := y + h
	g.footerY = bottom - 1
	bottom--
	g.timelineY = -1
	if d.opts.Player != nil {
		g.timelineY = bottom - 1
		bottom--
	}
	top := y + 2
	g.showPanels = w >= panelsMinWidth && h >= panelsMinHeight
	if g.showPanels {
		bottom -= panelsHeight
		g.panels = rect{x, bottom, w, panelsHeight}
	}
	limit := 5
	if h >= panelsMinHeight {
		limit = 12
	}
	limit = max(3, min(limit, bottom-top-procMinHeight))
	fh := d.findings.wantHeight(limit, w)
	g.findings = rect{x, top, w, fh}
	g.procs = rect{x, top + fh, w, max(0, bottom-top-fh)}
	return g
}

func (d *Dashboard) draw(screen tcell.Screen, x, y, w, h int) {
	if d.frame == nil {
		clearRows(screen, x, y, w, h)
		tview.Print(screen, "mytop-go: waiting for the first sample …", x, y, w, tview.AlignLeft, tcell.ColorSilver)
		d.drawModal(screen, x, y, w, h)
		return
	}
	g := d.layout(x, y, w, h)
	clearRows(screen, x, y, w, 2)
	clearRows(screen, x, g.footerY, w, 1)
	if g.timelineY >= 0 {
		clearRows(screen, x, g.timelineY, w, 1)
	}
	st := headerState{paused: d.paused, pending: d.pending, rec: d.recordingState()}
	tview.Print(screen, identityLine(d.frame, st, w), x, y, w, tview.AlignLeft, textColor)
	tview.Print(screen, "? help", x, y, w, tview.AlignRight, tcell.ColorSilver)
	tview.Print(screen, figuresLine(d.frame, w), x, y+1, w, tview.AlignLeft, textColor)
	if d.locks.active {
		top := y + 2
		bottom := g.footerY
		if g.timelineY >= 0 {
			bottom = g.timelineY
		}
		d.locks.draw(screen, rect{x, top, w, bottom - top})
	} else {
		drawAt(screen, d.findings, g.findings)
		if v, ok := d.activeView(); ok {
			d.drawView(screen, v, g.procs)
		} else {
			drawAt(screen, d.procs, g.procs)
		}
		if g.showPanels {
			d.drawPanels(screen, g.panels)
		}
	}
	if g.timelineY >= 0 {
		d.drawTimeline(screen, x, g.timelineY, w)
	}
	tview.Print(screen, d.footer(w), x, g.footerY, w, tview.AlignLeft, tcell.ColorSilver)
	d.drawModal(screen, x, y, w, h)
}

// clearRows blanks h full-width rows from y.
func clearRows(screen tcell.Screen, x, y, w, h int) {
	for row := y; row < y+h; row++ {
		for col := x; col < x+w; col++ {
			screen.SetContent(col, row, ' ', nil, tcell.StyleDefault)
		}
	}
}

func drawAt(screen tcell.Screen, p tview.Primitive, r rect) {
	if r.w <= 0 || r.h <= 0 {
		return
	}
	p.SetRect(r.x, r.y, r.w, r.h)
	p.Draw(screen)
}

// drawPanels puts Server, InnoDB and Host side by side in r.
func (d *Dashboard) drawPanels(screen tcell.Screen, r rect) {
	third := r.w / 3
	widths := []int{third, third, r.w - 2*third}
	titles := []string{
		panelTitle("Server /s", d.frame.Snapshot, snapshot.CollectorStatus),
		panelTitle("InnoDB", d.frame.Snapshot, snapshot.CollectorInnoDB),
		panelTitle("Host", d.frame.Snapshot, snapshot.CollectorHost),
	}
	inner := r.h - 2
	bodies := [][]string{
		serverLines(d.frame, d.hist, widths[0]-2),
		innodbLines(d.frame),
		hostLines(d.frame, d.hist, widths[2]-2, inner),
	}
	px := r.x
	for i, body := range bodies {
		box := newBox().SetBorder(true).SetTitle(titles[i])
		box.SetRect(px, r.y, widths[i], r.h)
		box.Draw(screen)
		bx, by, bw, bh := box.GetInnerRect()
		for j, line := range body {
			if j >= bh {
				break
			}
			tview.Print(screen, line, bx, by+j, bw, tview.AlignLeft, textColor)
		}
		px += widths[i]
	}
}

func panelTitle(name string, s *snapshot.Snapshot, source snapshot.CollectorName) string {
	if note := staleNote(s, source); note != "" {
		return " " + name + " [yellow](" + note + ")[-] "
	}
	return " " + name + " "
}

// footer shows the latest message for a few seconds, otherwise key hints.
func (d *Dashboard) footer(w int) string {
	if d.status != "" && time.Since(d.statusAt) < statusSeconds*time.Second {
		return "[::b]" + d.status + "[::-]"
	}
	if d.locks.active {
		return "[gray]" + fit(d.lockHints(), w) + "[-]"
	}
	items := []item{
		{"? help", 9}, {"q quit", 9}, {"p pause", 8}, {"Tab focus", 6}, {"/ filter", 7},
		{"i idle", 5}, {"</> sort", 5}, {"r reverse", 3}, {"Enter query", 4}, {"L locks", 5}, {"S statements", 5},
		{"M repl", 2}, {"G galera", 2},
	}
	if d.opts.Actions != nil {
		items = append(items, item{"e explain", 4})
		if !d.opts.ReadOnly {
			items = append(items, item{"k/K kill", 4})
		}
	}
	if d.opts.Player != nil {
		items = append(items, item{"[ ] step", 7}, item{"{ } ±1min", 6}, item{"- + speed", 6}, item{"n N finding", 7}, item{"g go to", 6})
	}
	if d.opts.Recorder != nil {
		items = append(items, item{"R record", 6})
	}
	return "[gray]" + fit(items, w) + "[-]"
}

func (d *Dashboard) drawModal(screen tcell.Screen, x, y, w, h int) {
	if d.modal == nil {
		return
	}
	mx, my, mw, mh := d.modal.place(x, y, w, h)
	d.modal.view.SetRect(mx, my, mw, mh)
	d.modal.view.Draw(screen)
}
