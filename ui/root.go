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
	r.d.draw(withASCIICells(screen), x, y, w, h)
}

func (r *root) InputHandler() func(*tcell.EventKey, func(tview.Primitive)) {
	return r.WrapInputHandler(func(ev *tcell.EventKey, _ func(tview.Primitive)) {
		r.d.handleKey(ev)
	})
}

// Sizes of the layout.
const (
	// The panel row needs this many screen rows, and each panel its minWidth;
	// below that they collapse into the header lines.
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
	g.showPanels = w >= d.panelsMinWidth() && h >= panelsMinHeight
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
		printLine(screen, "mytop-go: waiting for the first sample …", x, y, w, tview.AlignLeft, tcell.ColorSilver)
		d.drawModal(screen, x, y, w, h)
		return
	}
	g := d.layout(x, y, w, h)
	clearRows(screen, x, y, w, 2)
	clearRows(screen, x, g.footerY, w, 1)
	if g.timelineY >= 0 {
		clearRows(screen, x, g.timelineY, w, 1)
	}
	st := headerState{paused: d.paused, pending: d.pending, rec: d.recordingState(), blind: d.blind.mark(d.frame),
		canAsk: d.opts.Login != nil}
	printLine(screen, identityLine(d.frame, st, w), x, y, w, tview.AlignLeft, textColor)
	printLine(screen, "? help", x, y, w, tview.AlignRight, tcell.ColorSilver)
	printLine(screen, figuresLine(d.frame, w), x, y+1, w, tview.AlignLeft, textColor)
	if v := d.openView(); v != nil {
		top := y + 2
		bottom := g.footerY
		if g.timelineY >= 0 {
			bottom = g.timelineY
		}
		v.draw(screen, rect{x, top, w, bottom - top})
	} else {
		drawAt(screen, d.findings, g.findings)
		if v := d.activeView(); v != nil {
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
	printLine(screen, d.footer(w), x, g.footerY, w, tview.AlignLeft, tcell.ColorSilver)
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

// drawPanels puts the panels side by side in r, sharing its width evenly;
// the last takes what the division leaves.
func (d *Dashboard) drawPanels(screen tcell.Screen, r rect) {
	pp := d.panels()
	share := r.w / len(pp)
	px := r.x
	for i, p := range pp {
		w := share
		if i == len(pp)-1 {
			w = r.x + r.w - px
		}
		box := newBox().SetBorder(true).SetTitle(panelTitle(p.title, d.frame.Snapshot, p.source, w))
		box.SetRect(px, r.y, w, r.h)
		box.Draw(screen)
		bx, by, bw, bh := box.GetInnerRect()
		for j, line := range p.lines(bw, bh) {
			if j >= bh {
				break
			}
			printLine(screen, line, bx, by+j, bw, tview.AlignLeft, textColor)
		}
		px += w
	}
}

// panelTitle is a panel's name and, when its source is stale, why, cut to
// fit a box width wide: the note is cut, never the name (tview centres a
// title too long for its box and cuts both ends, so a long "no answer to
// ..." left "/s (stale: ..." of "Server /s").
func panelTitle(name string, s *snapshot.Snapshot, source snapshot.CollectorName, width int) string {
	note := []rune(staleNote(s, source))
	if len(note) == 0 {
		return " " + name + " "
	}
	room := width - 2 - len([]rune(name)) - 5 // borders, the spaces and the parentheses
	switch {
	case room < len("stale"):
		return " " + name + " "
	case len(note) > room:
		note = append(note[:room-1], '…')
	}
	return " " + name + " [yellow](" + string(note) + ")[-] "
}

// footer shows the latest message for a few seconds, otherwise key hints.
func (d *Dashboard) footer(w int) string {
	if d.status != "" && time.Since(d.statusAt) < statusSeconds*time.Second {
		return "[::b]" + d.status + "[::-]"
	}
	if v := d.openView(); v != nil {
		return "[gray]" + fit(v.hints(), w) + "[-]"
	}
	return "[gray]" + fit(d.footerHints(), w) + "[-]"
}

func (d *Dashboard) drawModal(screen tcell.Screen, x, y, w, h int) {
	if d.modal == nil {
		return
	}
	mx, my, mw, mh := d.modal.place(x, y, w, h)
	d.modal.view.SetRect(mx, my, mw, mh)
	d.modal.view.Draw(screen)
}
