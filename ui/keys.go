package ui

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// binding is one command and the keys that run it; help is generated from
// the same list, so every bound key is documented and no unbound one is.
type binding struct {
	keys []string
	help string
	run  func()
}

func (d *Dashboard) keyBindings() []*binding {
	bb := []*binding{
		{[]string{"?"}, "this help", d.openHelp},
		{[]string{"q", "Ctrl-C"}, "quit", d.quit},
		{[]string{"p"}, "pause / resume the view (live: frames keep arriving; resume jumps to the latest)", d.togglePause},
		{[]string{"Tab", "Backtab"}, "switch focus between findings and processlist", func() { d.setFocus(!d.focusFindings) }},
		{[]string{"Enter"}, "show the selected query in full, or the selected finding", d.openSelected},
		{[]string{"y"}, "copy the selected query or finding (in a query, EXPLAIN or finding view: its text) to the terminal clipboard (OSC 52)", d.copySelected},
		{[]string{"/"}, "filter the processlist: user:app db:shop host:10.0 state:lock cmd:query id:42 text (ANDed)", d.openFilter},
		{[]string{"Esc"}, "clear the filter", d.clearFilter},
		{[]string{"i"}, "hide / show idle threads (Sleep, Daemon, Binlog Dump)", func() { d.list.toggleIdle(); d.procs.reselect() }},
		{[]string{"<"}, "sort by the previous column", func() { d.list.moveSort(-1); d.procs.reselect() }},
		{[]string{">"}, "sort by the next column", func() { d.list.moveSort(1); d.procs.reselect() }},
		{[]string{"r"}, "reverse the sort order", func() { d.list.reverse(); d.procs.reselect() }},
		{[]string{"c"}, "hide / show the per-thread columns CPU%, Read/s, Write/s, Mem", d.toggleThreadCols},
	}
	bb = append(bb, d.viewBindings()...)
	bb = append(bb, &binding{[]string{"L"}, "lock view: who blocks whom, root blockers first (there k/K kill the selected root blocker)", d.toggleLocks})
	bb = append(bb, &binding{[]string{"S"}, "statements view: top statements of the last digest interval (or sampled), < > sort, r reverse, e EXPLAIN", d.openStatements})
	bb = append(bb, &binding{[]string{"e"}, "EXPLAIN the selected thread's query (replay: the plan recorded with it)", d.explainSelected})
	if d.opts.Actions != nil {
		if !d.opts.ReadOnly {
			bb = append(bb,
				&binding{[]string{"k"}, "KILL QUERY of the selected thread (asks y/n)", func() { d.confirmKill(false) }},
				&binding{[]string{"K"}, "KILL CONNECTION of the selected thread (asks y/n)", func() { d.confirmKill(true) }})
		}
	}
	if d.opts.Player != nil {
		bb = append(bb, d.playerBindings()...)
	}
	if d.opts.Recorder != nil {
		bb = append(bb, d.recorderBindings()...)
	}
	return bb
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
	}
	return ""
}

// helpText lists every bound key, then the navigation keys of the panels.
func (d *Dashboard) helpText() string {
	var b strings.Builder
	b.WriteString("[::b]Keys[::-]\n\n")
	for _, k := range d.bindings {
		fmt.Fprintf(&b, "  [yellow]%-14s[-] %s\n", strings.Join(k.keys, " "), k.help)
	}
	b.WriteString("  [yellow]↑ ↓ PgUp PgDn Home End[-] move in the focused panel\n")
	b.WriteString("\n[::b]Processlist marks[::-]  * thread named by the selected finding,  + running > 10 s,  ! > 60 s\n")
	if d.opts.Actions == nil {
		b.WriteString("\nKILL is not available and EXPLAIN shows recorded plans only: no server connection (replay or import).\n")
	} else if d.opts.ReadOnly {
		b.WriteString("\nRead-only: KILL keys are not bound.\n")
	}
	b.WriteString("\nEsc, q, Enter or ? closes this help.")
	return b.String()
}

func (d *Dashboard) openHelp() {
	d.openModal(textModal(newTextView(" Help ", d.helpText()), '?'))
}
