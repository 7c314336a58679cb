package ui

import (
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/rivo/tview"
)

// Run shows the dashboard in app until the user quits, the terminal goes away
// (SIGHUP, a read error on the tty) or SIGTERM arrives. Frames are read from
// frames on a separate goroutine; when they come faster than the screen
// redraws, they are batched into one redraw. A closed channel leaves the last
// frame on screen (end of a replay).
func (d *Dashboard) Run(app *tview.Application, frames <-chan *snapshot.Frame) error {
	d.app = app
	app.SetRoot(d.root, true).SetFocus(d.root)

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGHUP, syscall.SIGTERM)
	defer signal.Stop(sigs)
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-sigs:
			// Stop is safe from any goroutine; the UI state is left alone.
			app.Stop()
		case <-done:
		}
	}()

	go d.pump(frames, done)
	err := app.Run()
	if err != nil {
		return fmt.Errorf("terminal lost: %w", err)
	}
	return nil
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
