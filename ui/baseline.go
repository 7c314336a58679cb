package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/rivo/tview"

	"github.com/mytop-go/mytop-go/changes"
	"github.com/mytop-go/mytop-go/snapshot"
)

// baseline is the healthy window the DBA marked with h and the frames seen
// since, for the diff D shows. It sees frames as they reach the dashboard,
// live or replayed alike.
type baseline struct {
	healthy *changes.Window
	open    bool // h pressed once: frames still go into healthy
	since   *changes.Window
	last    time.Time
}

// maxJump is the gap between two frames after which "since" starts again: a
// seek in a replay, or a monitor that lost its server for minutes.
const maxJump = 2 * time.Minute

// observe adds one arriving frame to the open window.
func (b *baseline) observe(f *snapshot.Frame) {
	t := f.Snapshot.Time
	jumped := !b.last.IsZero() && (t.Before(b.last) || t.Sub(b.last) > maxJump)
	b.last = t
	switch {
	case b.open:
		b.healthy.Add(f)
	case b.healthy != nil:
		if jumped || b.since == nil {
			b.since = changes.NewWindow()
		}
		b.since.Add(f)
	}
}

// toggle opens the healthy window at the shown frame, or closes it; it says
// what it did.
func (b *baseline) toggle(shown *snapshot.Frame) string {
	if !b.open {
		b.healthy, b.since, b.open = changes.NewWindow(), nil, true
		if shown != nil {
			b.healthy.Add(shown)
			b.last = shown.Snapshot.Time
		}
		return "healthy window open: h again closes it, D then shows what changed since"
	}
	b.open = false
	return fmt.Sprintf("healthy window marked: %d frames, %s .. %s; D shows what changed since",
		b.healthy.Frames, b.healthy.From.Format("15:04:05"), b.healthy.To.Format("15:04:05"))
}

// diffText is the D view.
func (b *baseline) diffText() string {
	switch {
	case b.healthy == nil:
		return "No healthy window yet: press h at a calm moment, h again a minute later; D then lists what changed since."
	case b.open:
		return "The healthy window is still open: press h to close it."
	case b.since == nil || b.since.Frames < 2:
		return "Not enough frames since the healthy window: wait for a few more."
	}
	var s strings.Builder
	fmt.Fprintf(&s, "healthy  %s .. %s (%d frames)\nnow      %s .. %s (%d frames)\n\n",
		b.healthy.From.Format("15:04:05"), b.healthy.To.Format("15:04:05"), b.healthy.Frames,
		b.since.From.Format("15:04:05"), b.since.To.Format("15:04:05"), b.since.Frames)
	if err := changes.WriteText(&s, changes.Compare(b.healthy, b.since), 60); err != nil {
		return err.Error()
	}
	return tview.Escape(strings.TrimSuffix(s.String(), "\n"))
}

func (d *Dashboard) toggleBaseline() { d.say(d.base.toggle(d.frame)) }

func (d *Dashboard) openDiff() {
	tv := newTextView(" What changed since the healthy window [gray](Esc closes)[-] ", d.base.diffText())
	d.openModal(textModal(tv, 'D'))
}
