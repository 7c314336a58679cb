package ui

import (
	"context"
	"fmt"

	"github.com/rivo/tview"
)

// Run shows the fleet in app until the user quits, the terminal goes away or
// ctx is done; frames of every server arrive on one channel and are batched
// into one redraw, as Dashboard.Run does for one server.
func (fl *Fleet) Run(ctx context.Context, app *tview.Application, frames <-chan ServerFrame) error {
	fl.app = app
	for _, d := range fl.dashes {
		d.app = app
	}
	app.SetRoot(fl, true).SetFocus(fl)
	done := make(chan struct{})
	defer close(done)
	go watch(ctx, app, fl.tells, func(line string) {
		if d := fl.dashes[fl.open]; d != nil {
			d.say(line)
			return
		}
		fl.status = line
	}, done)
	go pumpBatches(app, frames, done, func(sf ServerFrame) { fl.Update(sf.Server, sf.Frame) })
	if err := app.Run(); err != nil {
		return fmt.Errorf("terminal lost: %w", err)
	}
	return nil
}

// Tell puts line on the open dashboard's message line, or the fleet's; safe
// from any goroutine.
func (fl *Fleet) Tell(line string) { tell(fl.tells, line) }
