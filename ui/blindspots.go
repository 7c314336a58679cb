package ui

import (
	"fmt"
	"strings"

	"github.com/rivo/tview"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/visibility"
)

// blindReport is what the shown frame cannot see. The dashboard does not
// know the monitor's account, so GRANTs name a placeholder.
func blindReport(f *snapshot.Frame) visibility.Report {
	return buildVisibility([]*snapshot.Frame{f}, visibility.Account{}, nil)
}

// buildVisibility is visibility.Build; a test counts its calls.
var buildVisibility = visibility.Build

// blindCache keeps the header's blind-spot mark of one frame: a report
// walks every source and rule, too much for every draw (a key press, a
// resize, the clock) on the UI goroutine.
type blindCache struct {
	frame *snapshot.Frame
	text  string
}

// mark is blindMark(f), worked out again only for a new frame.
func (c *blindCache) mark(f *snapshot.Frame) string {
	if f != c.frame {
		c.frame, c.text = f, blindMark(f)
	}
	return c.text
}

// blindMark is the header word for the blind spots that stop a rule: one
// word, opened with b.
func blindMark(f *snapshot.Frame) string {
	r := blindReport(f)
	if !r.BlindToRules() {
		return ""
	}
	return fmt.Sprintf("[black:yellow]BLIND %d[-:-] (b)", len(r.RulesBlind))
}

// blindText lists each blind spot with what it costs and its fix.
func blindText(f *snapshot.Frame) string {
	r := blindReport(f)
	if len(r.Blind) == 0 {
		return "Every source answers: nothing is hidden from the rules."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d rules cannot run for want of a source. `mytop-go check` says the same for scripts.\n", len(r.RulesBlind))
	for _, s := range r.Blind {
		fmt.Fprintf(&b, "\n[::b]%s[::-]: %s\n", tview.Escape(s.Source), tview.Escape(s.Why))
		if len(s.Panels) > 0 {
			fmt.Fprintf(&b, "  loses: %s\n", tview.Escape(strings.Join(s.Panels, "; ")))
		}
		if len(s.Rules) > 0 {
			fmt.Fprintf(&b, "  rules: %s\n", tview.Escape(strings.Join(s.Rules, ", ")))
		}
		if s.Fix != "" {
			fmt.Fprintf(&b, "  fix:   [yellow]%s[-]\n", tview.Escape(s.Fix))
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func (d *Dashboard) openBlindSpots() {
	if d.frame == nil {
		return
	}
	tv := newTextView(" What this monitor cannot see [gray](Esc closes)[-] ", blindText(d.frame))
	d.openModal(textModal(tv, 'b'))
}
