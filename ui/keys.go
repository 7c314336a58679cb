package ui

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// binding is one command, the keys that run it and its hint in the footer;
// help and footer are generated from the same list, so every bound key is
// documented, no unbound one is, and a hint shows exactly when its key works.
type binding struct {
	keys []string
	help string
	run  func()
	// hint is the footer's text for the key (empty: none), kept or dropped
	// by its priority when the footer is too narrow.
	hint item
}

func (d *Dashboard) keyBindings() []*binding {
	bb := []*binding{
		{[]string{"?"}, "this help", d.openHelp, item{"? help", 9}},
		{[]string{"q", "Ctrl-C"}, "quit", d.quit, item{"q quit", 9}},
		{[]string{"p"}, "pause / resume the view (live: frames keep arriving; resume jumps to the latest)", d.togglePause, item{"p pause", 8}},
		{[]string{"Tab", "Backtab"}, "switch focus between findings and processlist", func() { d.setFocus(!d.focusFindings) }, item{"Tab focus", 6}},
		{[]string{"/"}, "filter the processlist: user:app db:shop host:10.0 state:lock cmd:query id:42 text (ANDed)", d.openFilter, item{"/ filter", 7}},
		{[]string{"Esc"}, "clear the filter", d.clearFilter, item{}},
		{[]string{"i"}, "hide / show idle threads (Sleep, Daemon, Binlog Dump)", func() { d.list.toggleIdle(); d.procs.reselect() }, item{"i idle", 5}},
		{[]string{"<"}, "sort by the previous column", func() { d.list.moveSort(-1); d.procs.reselect() }, item{"</> sort", 5}},
		{[]string{">"}, "sort by the next column", func() { d.list.moveSort(1); d.procs.reselect() }, item{}},
		{[]string{"r"}, "reverse the sort order", func() { d.list.reverse(); d.procs.reselect() }, item{"r reverse", 3}},
		{[]string{"c"}, "hide / show the per-thread columns CPU%, Read/s, Write/s, Mem", d.toggleThreadCols, item{}},
		{[]string{"Enter"}, "show the selected query in full, or the selected finding", d.openSelected, item{"Enter query", 4}},
		{[]string{"h"}, "mark a healthy window: h opens it at the shown frame, h again closes it", d.toggleBaseline, item{}},
		{[]string{"D"}, "what changed since the healthy window: statements new or slower, variables, rates, the user/host/db mix", d.openDiff, item{}},
		{[]string{"b"}, "what this monitor cannot see here: each blind spot, the panels and rules it costs, the GRANT or setting that ends it", d.openBlindSpots, item{}},
		{[]string{"y"}, "copy the selected query or finding (in a query, EXPLAIN or finding view: its text) to the terminal clipboard (OSC 52)", d.copySelected, item{"y copy", 3}},
	}
	for i := range d.views {
		bb = append(bb, &d.views[i].binding)
	}
	explain := &binding{[]string{"e"}, "EXPLAIN the selected thread's query (replay: the plan recorded with it)", d.explainSelected, item{}}
	if d.opts.Actions != nil {
		explain.hint = item{"e explain", 4} // replay shows recorded plans only: no hint
	}
	bb = append(bb, explain)
	if d.opts.Actions != nil && !d.opts.ReadOnly {
		bb = append(bb,
			&binding{[]string{"k"}, "KILL QUERY of the selected thread (asks y/n)", func() { d.confirmKill(false) }, item{"k/K kill", 4}},
			&binding{[]string{"K"}, "KILL CONNECTION of the selected thread (asks y/n)", func() { d.confirmKill(true) }, item{}},
			&binding{[]string{"X"}, "with a / filter: KILL QUERY of every thread shown (asks y/n with the count and first ids)", func() { d.confirmKillFilter(false) }, item{"X kill all", 2}},
			&binding{[]string{"Ctrl-X"}, "with a / filter: KILL CONNECTION of every thread shown (asks y/n)", func() { d.confirmKillFilter(true) }, item{}})
	}
	if d.opts.Player != nil {
		bb = append(bb, d.playerBindings()...)
	}
	if d.opts.Recorder != nil {
		bb = append(bb, d.recorderBindings()...)
	}
	if d.opts.Login != nil {
		bb = append(bb, d.loginBindings()...)
	}
	return bb
}

// footerHints are the hints of the keys bound now, in binding order.
func (d *Dashboard) footerHints() []item {
	var items []item
	for _, b := range d.bindings {
		if b.hint.text != "" {
			items = append(items, b.hint)
		}
	}
	return items
}

func keyIndex(bb []*binding) map[string]*binding {
	m := make(map[string]*binding)
	for _, b := range bb {
		for _, k := range b.keys {
			m[k] = b
		}
	}
	return m
}

// keyName names an event the way bindings do.
func keyName(ev *tcell.EventKey) string {
	switch ev.Key() {
	case tcell.KeyRune:
		if ev.Rune() == ' ' {
			return "Space"
		}
		return string(ev.Rune())
	case tcell.KeyTab:
		return "Tab"
	case tcell.KeyBacktab:
		return "Backtab"
	case tcell.KeyEnter:
		return "Enter"
	case tcell.KeyEscape:
		return "Esc"
	case tcell.KeyCtrlC:
		return "Ctrl-C"
	case tcell.KeyCtrlX:
		return "Ctrl-X"
	case tcell.KeyCtrlR:
		return "Ctrl-R"
	}
	return ""
}

// helpText lists every bound key, then the navigation keys of the panels,
// each description wrapped to width under its own column so no line is cut
// and the keys stay readable at 80 columns.
func (d *Dashboard) helpText(width int) string {
	var b strings.Builder
	b.WriteString("[::b]Keys[::-]\n\n")
	const keyCol = 17 // "  " + 14 + " "
	for _, k := range d.bindings {
		keys := strings.Join(k.keys, " ")
		for i, line := range wrapWords(k.help, max(20, width-keyCol)) {
			if i == 0 {
				fmt.Fprintf(&b, "  [yellow]%-14s[-] %s\n", tview.Escape(keys), tview.Escape(line))
				continue
			}
			fmt.Fprintf(&b, "%*s%s\n", keyCol, "", tview.Escape(line))
		}
	}
	b.WriteString("  [yellow]↑ ↓ PgUp PgDn Home End[-] move in the focused panel\n")
	para := func(s string) {
		b.WriteString("\n" + tview.Escape(strings.Join(wrapWords(s, max(20, width)), "\n")) + "\n")
	}
	para("Processlist marks:  * thread named by the selected finding,  + running > 10 s,  ! > 60 s")
	if d.opts.Actions == nil {
		para("KILL is not available and EXPLAIN shows recorded plans only: no server connection (replay or import).")
	} else if d.opts.ReadOnly {
		para("Read-only: KILL keys are not bound.")
	}
	para("In a query, EXPLAIN or finding view: y copies its text. Esc, q, Enter or ? closes this help.")
	return strings.TrimSuffix(b.String(), "\n")
}

func (d *Dashboard) openHelp() {
	width := 80
	if d.screen != nil {
		width, _ = d.screen.Size()
	}
	// The modal is the screen less 4 columns, the border 2 more.
	tv := newTextView(" Help [gray](↑ ↓ PgUp PgDn scroll, Esc closes)[-] ", d.helpText(width-6))
	d.openModal(textModal(tv, '?'))
}
