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
	go watch(ctx, app, d.tells, d.say, done)
	go pumpBatches(app, frames, done, d.Update)
	err := app.Run()
	if err != nil {
		return fmt.Errorf("terminal lost: %w", err)
	}
	return nil
}

// Tell puts line on the message line, e.g. the monitor's own health when the
// command gets SIGUSR1. It is safe from any goroutine; a line told while
// another waits to be shown is dropped.
func (d *Dashboard) Tell(line string) { tell(d.tells, line) }

func tell(tells chan<- string, line string) {
	select {
	case tells <- line:
	default:
	}
}

// watch stops app when ctx is done and has say show told lines on the UI
// goroutine, until done closes.
func watch(ctx context.Context, app *tview.Application, tells <-chan string, say func(string), done <-chan struct{}) {
	for {
		select {
		case <-ctx.Done():
			// Stop is safe from any goroutine; the UI state is left alone.
			app.Stop()
			return
		case line := <-tells:
			app.QueueUpdateDraw(func() { say(line) })
		case <-done:
			return
		}
	}
}

// pumpBatches hands items to apply on the UI goroutine. At most one redraw is
// queued at a time, so a fast replay cannot flood tview's update queue.
func pumpBatches[T any](app *tview.Application, items <-chan T, done <-chan struct{}, apply func(T)) {
	var (
		mu      sync.Mutex
		pending []T
		queued  bool
	)
	drain := func() {
		mu.Lock()
		batch := pending
		pending, queued = nil, false
		mu.Unlock()
		for _, it := range batch {
			apply(it)
		}
	}
	for {
		select {
		case it, ok := <-items:
			if !ok {
				return
			}
			mu.Lock()
			pending = append(pending, it)
			wake := !queued
			queued = true
			mu.Unlock()
			if wake {
				app.QueueUpdateDraw(drain)
			}
		case <-done:
			return
		}
	}
}
