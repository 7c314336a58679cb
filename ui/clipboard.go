package ui

import (
	"encoding/base64"
	"fmt"
	"os"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
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
	if tty, ok := d.screen.Tty(); ok && !tcellSendsOSC52(os.Getenv("TERM")) {
		// tmux with TERM=screen (its default) takes OSC 52 too, but tcell
		// sends it only to xterm-like terminals: write it ourselves. Keys
		// and drawing share this goroutine, so it does not split a frame.
		fmt.Fprintf(tty, "\x1b]52;c;%s\a", base64.StdEncoding.EncodeToString([]byte(c.text)))
	} else {
		d.screen.SetClipboard([]byte(c.text))
	}
	d.say(fmt.Sprintf("copied %s (%d bytes) to the terminal clipboard (OSC 52)", c.what, len(c.text)))
}

// tcellSendsOSC52 is whether tcell's SetClipboard writes anything for term:
// only for terminfo entries it treats as xterm-like.
func tcellSendsOSC52(term string) bool {
	ti, err := terminfo.LookupTerminfo(term)
	return err == nil && (ti.XTermLike || strings.HasPrefix(ti.Name, "xterm"))
}

// isCopyKey is y, which copies from a text view instead of closing it.
func isCopyKey(ev *tcell.EventKey) bool {
	return ev.Key() == tcell.KeyRune && ev.Rune() == 'y'
}
