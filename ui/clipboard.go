package ui

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// clip is what y copies: a label for the confirmation and the text.
type clip struct {
	what, text string
}

// copySelected copies the selected thread's statement (processlist focus) or
// the selected finding's title, evidence and advice (findings focus).
func (d *Dashboard) copySelected() {
	if d.focusFindings {
		if f := d.findings.selected(); f != nil {
			var b strings.Builder
			b.WriteString(f.ID + ": " + f.Title + "\n")
			for _, e := range f.Evidence {
				b.WriteString("- " + e + "\n")
			}
			if f.Advice != "" {
				b.WriteString("advice: " + f.Advice + "\n")
			}
			d.copyClip(clip{"finding " + f.ID, b.String()})
			return
		}
		d.say("no finding selected")
		return
	}
	p := d.procs.selected()
	switch {
	case p == nil:
		d.say("no thread selected")
	case p.Info == "":
		d.say(fmt.Sprintf("thread %d runs no statement", p.ID))
	default:
		d.copyClip(clip{fmt.Sprintf("query of thread %d", p.ID), p.Info})
	}
}

// copyClip hands c to the terminal's clipboard with OSC 52 (tcell writes it
// when the terminal is xterm-like, tmux included), which reaches the
// clipboard of the machine the DBA sits at, through SSH.
func (d *Dashboard) copyClip(c clip) {
	if d.screen == nil {
		d.say("no terminal to copy to")
		return
	}
	d.screen.SetClipboard([]byte(c.text))
	d.say(fmt.Sprintf("copied %s (%d bytes) to the terminal clipboard (OSC 52)", c.what, len(c.text)))
}

// isCopyKey is y, which copies from a text view instead of closing it.
func isCopyKey(ev *tcell.EventKey) bool {
	return ev.Key() == tcell.KeyRune && ev.Rune() == 'y'
}
