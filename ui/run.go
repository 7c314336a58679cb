package ui

import (
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/mytop-go/mytop-go/internal/selfstat"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/rivo/tview"
)

// Run shows the dashboard in app until the user quits, the terminal goes away
// (SIGHUP, a read error on the tty) or SIGTERM arrives. SIGUSR1 puts the
// monitor's own health (selfstat.Line) on the message line. Frames are read from
// frames on a separate goroutine; when they come faster than the screen
// redraws, they are batched into one redraw. A closed channel leaves the last
// frame on screen (end of a replay).
func (d *Dashboard) Run(app *tview.Application, frames <-chan *snapshot.Frame) error {
	d.app = app
	app.SetRoot(d.root, true).SetFocus(d.root)

	done := make(chan struct{})
	defer close(done)
	stopSignals := d.handleSignals(done)
	defer stopSignals()

	go d.pump(frames, done)
	err := app.Run()
	if err != nil {
		return fmt.Errorf("terminal lost: %w", err)
	}
	return nil
}

// handleSignals stops app on SIGHUP or SIGTERM and answers SIGUSR1 until
// done closes; the returned func unregisters the signals.
func (d *Dashboard) handleSignals(done <-chan struct{}) func() {
	end := make(chan os.Signal, 1)
	signal.Notify(end, syscall.SIGHUP, syscall.SIGTERM)
	health := make(chan os.Signal, 1)
	signal.Notify(health, syscall.SIGUSR1)
	go func() {
		for {
			select {
			case <-end:
				// Stop is safe from any goroutine; the UI state is left alone.
				d.app.Stop()
				return
			case <-health:
				line := "mytop-go: " + selfstat.Line()
				d.app.QueueUpdateDraw(func() { d.say(line) })
			case <-done:
				return
			}
		}
	}()
	return func() { signal.Stop(end); signal.Stop(health) }
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
