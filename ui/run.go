package ui

import (
	"context"
	"fmt"
	"sync"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/rivo/tview"
)

// Run shows the dashboard in app until the user quits, the terminal goes away
// (a read error on the tty) or ctx is done: the command owns the signals
// (SIGHUP, SIGTERM) and ends ctx on them. Frames are read from frames on a
// separate goroutine; when they come faster than the screen redraws, they
// are batched into one redraw. A closed channel leaves the last frame on
// screen (end of a replay).
func (d *Dashboard) Run(ctx context.Context, app *tview.Application, frames <-chan *snapshot.Frame) error {
	d.app = app
	app.SetRoot(d.root, true).SetFocus(d.root)

	done := make(chan struct{})
	defer close(done)
	go d.watch(ctx, done)
	go d.pump(frames, done)
	err := app.Run()
	if err != nil {
		return fmt.Errorf("terminal lost: %w", err)
	}
	return nil
}

// Tell puts line on the message line, e.g. the monitor's own health when the
// command gets SIGUSR1. It is safe from any goroutine; a line told while
// another waits to be shown is dropped.
func (d *Dashboard) Tell(line string) {
	select {
	case d.tells <- line:
	default:
	}
}

// watch stops app when ctx is done and shows told lines, until done closes.
func (d *Dashboard) watch(ctx context.Context, done <-chan struct{}) {
	for {
		select {
		case <-ctx.Done():
			// Stop is safe from any goroutine; the UI state is left alone.
			d.app.Stop()
			return
		case line := <-d.tells:
			d.app.QueueUpdateDraw(func() { d.say(line) })
		case <-done:
			return
		}
	}
}

// pump hands frames to the UI goroutine. At most one redraw is queued at a
// time, so a fast replay cannot flood tview's update queue.
func (d *Dashboard) pump(frames <-chan *snapshot.Frame, done <-chan struct{}) {
	var (
		mu      sync.Mutex
		pending []*snapshot.Frame
		queued  bool
	)
	drain := func() {
		mu.Lock()
		batch := pending
		pending, queued = nil, false
		mu.Unlock()
		for _, f := range batch {
			d.Update(f)
		}
	}
	for {
		select {
		case f, ok := <-frames:
			if !ok {
				return
			}
			mu.Lock()
			pending = append(pending, f)
			wake := !queued
			queued = true
			mu.Unlock()
			if wake {
				d.app.QueueUpdateDraw(drain)
			}
		case <-done:
			return
		}
	}
}
