package ui

import (
	"fmt"

	"github.com/rivo/tview"
)

// Run shows the fleet in app until the user quits or the terminal goes
// away; frames of every server arrive on one channel and are batched into one
// redraw, as Dashboard.Run does for one server.
func (fl *Fleet) Run(app *tview.Application, frames <-chan ServerFrame) error {
	fl.app = app
	for _, d := range fl.dashes {
		d.app = app
	}
	app.SetRoot(fl, true).SetFocus(fl)
	done := make(chan struct{})
	defer close(done)
	stop := stopOnSignals(app, func(line string) {
		if d := fl.dashes[fl.open]; d != nil {
			d.say(line)
			return
		}
		fl.status = line
	}, done)
	defer stop()
	go pumpBatches(app, frames, done, func(sf ServerFrame) { fl.Update(sf.Server, sf.Frame) })
	if err := app.Run(); err != nil {
		return fmt.Errorf("terminal lost: %w", err)
	}
	return nil
}
