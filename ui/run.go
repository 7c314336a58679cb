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
	stopSignals := stopOnSignals(app, d.say, done)
	defer stopSignals()

	go pumpBatches(app, frames, done, d.Update)
	err := app.Run()
	if err != nil {
		return fmt.Errorf("terminal lost: %w", err)
	}
	return nil
}

// stopOnSignals stops app on SIGHUP or SIGTERM and says the monitor's own
// health on SIGUSR1 until done closes; the returned func unregisters the signals.
func stopOnSignals(app *tview.Application, say func(string), done <-chan struct{}) func() {
	end := make(chan os.Signal, 1)
	signal.Notify(end, syscall.SIGHUP, syscall.SIGTERM)
	health := make(chan os.Signal, 1)
	signal.Notify(health, syscall.SIGUSR1)
	go func() {
		for {
			select {
			case <-end:
				// Stop is safe from any goroutine; the UI state is left alone.
				app.Stop()
				return
			case <-health:
				line := "mytop-go: " + selfstat.Line()
				app.QueueUpdateDraw(func() { say(line) })
			case <-done:
				return
			}
		}
	}()
	return func() { signal.Stop(end); signal.Stop(health) }
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
