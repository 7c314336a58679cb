package ui

import "github.com/gdamore/tcell/v2"

// view is a screen of its own, opened by its key. A modal view (statements)
// is only its binding: its run opens a modal. A body view (locks) also says
// when it is open; it then takes the place of the findings, processlist and
// panels, gets the keys it owns before the dashboard's bindings, and has the
// footer for its own hints.
type view struct {
	binding
	open  func() bool // nil: a modal view
	draw  func(screen tcell.Screen, r rect)
	keys  func(ev *tcell.EventKey) bool // false passes a key on
	hints func() []item
}

// newViews lists the views. Adding one (replication M, Galera G, fleet) is
// one entry here; its key, help line and footer hint come with it.
func (d *Dashboard) newViews() []view {
	return []view{
		{binding: binding{[]string{"L"}, "lock view: who blocks whom, root blockers first (there k/K kill the selected root blocker)", d.toggleLocks, item{"L locks", 5}},
			open: func() bool { return d.locks.active }, draw: d.locks.draw, keys: d.handleLockKey, hints: d.lockHints},
		{binding: binding{[]string{"S"}, "statements view: top statements of the last digest interval (or sampled), < > sort, r reverse, e EXPLAIN", d.openStatements, item{"S statements", 5}}},
	}
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
