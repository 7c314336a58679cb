package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/rivo/tview"
)

// view is a screen of its own, opened by its key; its key, help line and
// footer hint come with its entry. Three kinds:
//   - a modal view (statements) is only its binding: run opens a modal;
//   - a pane view (replication, Galera) has lines: while its key is toggled
//     on it is drawn, bordered, in the processlist's place;
//   - a body view (locks, load) says when it is open; it then takes the place of
//     the findings, processlist and panels, gets the keys it owns before the
//     dashboard's bindings, and has the footer for its own hints.
type view struct {
	binding
	// pane views
	title string
	lines func(f *snapshot.Frame) []string
	// body views
	open   func() bool
	draw   func(screen tcell.Screen, r rect)
	handle func(ev *tcell.EventKey) bool // false passes a key on
	hints  func() []item
}

// newViews lists the views. Adding one (fleet, ...) is one entry here.
func (d *Dashboard) newViews() []view {
	return []view{
		{binding: binding{[]string{"L"}, "lock view: who blocks whom, root blockers first (there k/K kill the selected root blocker)", d.toggleLocks, item{"L locks", 5}},
			open: func() bool { return d.locks.active }, draw: d.locks.draw, handle: d.handleLockKey, hints: d.lockHints},
		{binding: binding{[]string{"W"}, "load view: active sessions by wait class over the last minutes, the CPU count across them, the biggest statements, users, hosts, dbs and locked tables", d.toggleLoad, item{"W load", 5}},
			open: func() bool { return d.load.active }, draw: d.load.draw, handle: d.handleLoadKey, hints: d.loadHints},
		{binding: binding{[]string{"S"}, "statements view: top statements of the last digest interval (or sampled), < > sort, r reverse, e EXPLAIN", d.openStatements, item{"S statements", 5}}},
		d.paneView("M", "Replication", "replication view: every channel's source, threads, lag, GTIDs and errors (again: processlist)", item{"M repl", 2}, replicationLines),
		d.paneView("G", "Galera", "Galera view: node state, cluster size, flow control, queues, conflicts (again: processlist)", item{"G galera", 2}, galeraLines),
	}
}

// paneView is a view toggled by key in the processlist's place.
func (d *Dashboard) paneView(key, title, help string, hint item, lines func(*snapshot.Frame) []string) view {
	return view{binding: binding{[]string{key}, help, func() { d.toggleView(key) }, hint}, title: title, lines: lines}
}

func (d *Dashboard) toggleView(key string) {
	if d.view == key {
		d.view = ""
		return
	}
	d.view = key
}

// openView is the body view open now, or nil for the main screen.
func (d *Dashboard) openView() *view {
	for i := range d.views {
		if v := &d.views[i]; v.open != nil && v.open() {
			return v
		}
	}
	return nil
}

// activeView is the pane view shown in place of the processlist, if any.
func (d *Dashboard) activeView() *view {
	for i := range d.views {
		if v := &d.views[i]; v.lines != nil && v.binding.keys[0] == d.view {
			return v
		}
	}
	return nil
}

// drawView draws pane view v in r as a bordered list of lines.
func (d *Dashboard) drawView(screen tcell.Screen, v *view, r rect) {
	if r.w <= 2 || r.h <= 2 {
		return
	}
	box := newBox().SetBorder(true).SetTitle(" " + v.title + " [gray](" + v.binding.keys[0] + ": back to processlist)[-] ").
		SetTitleAlign(tview.AlignLeft)
	box.SetRect(r.x, r.y, r.w, r.h)
	box.Draw(screen)
	bx, by, bw, bh := box.GetInnerRect()
	for i, line := range v.lines(d.frame) {
		if i >= bh {
			break
		}
		printLine(screen, line, bx, by+i, bw, tview.AlignLeft, textColor)
	}
}
