package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/mytop-go/mytop-go/collectors"
	"github.com/mytop-go/mytop-go/fleet"
	"github.com/mytop-go/mytop-go/internal/cli"
	"github.com/mytop-go/mytop-go/internal/selfstat"
	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/ui"
)

func runLive(args []string, stdout, stderr io.Writer) error {
	selfstat.TuneGC()
	fs := flag.NewFlagSet("mytop-go", flag.ContinueOnError)
	lf := collectors.AddLiveFlags(fs)
	recordTo := fs.String("record", "", "record from the start to this file (R stops and resumes it)")
	redact := fs.Bool("redact", false, "in recordings (--record or R): replace literals in query text with ?")
	readOnly := fs.Bool("read-only", false, "disable KILL entirely")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	lf.OnScreen = true
	if fleet.IsFleet(lf) {
		if *recordTo != "" {
			return fmt.Errorf("--record takes one server; for several use: mytop-go serve --record DIR")
		}
		return runFleetDashboard(lf, *readOnly, stderr)
	}
	live, err := lf.Open(stderr)
	if err != nil {
		return err
	}
	defer live.Close()

	rec := recording.NewLiveRecorder(*recordTo, recording.WriterOptions{Redact: *redact, Interval: lf.Interval, Version: version})
	if *recordTo != "" {
		if _, _, err := rec.Toggle(); err != nil {
			return err
		}
	}
	dash := ui.New(ui.Options{Actions: live, ReadOnly: *readOnly, Recorder: rec, Login: live})
	err = runDashboard(dash, live, liveBuilder(), rec.Write)
	return errors.Join(err, rec.Close())
}

// runDashboard shows src's frames on the dashboard, each given to record
// first (when not nil), until the user quits, the terminal goes away or a
// signal ends it.
func runDashboard(dash *ui.Dashboard, src pipeline.Source, b *pipeline.Builder, record func(*snapshot.Frame)) error {
	ctx, cancel := dashboardSignals(dash.Tell)
	defer cancel()
	shown, produced := pipeline.Feed(ctx, 4, func(ctx context.Context, emit func(*snapshot.Frame)) error {
		return pipeline.Run(ctx, src, b, func(f *snapshot.Frame) error {
			if record != nil {
				record(f)
			}
			emit(f)
			return nil
		})
	}, func(frames <-chan *snapshot.Frame) error {
		app, err := ui.NewApplication()
		if err != nil {
			return fmt.Errorf("terminal: %w", err)
		}
		return dash.Run(ctx, app, frames)
	})
	if shown != nil {
		return shown
	}
	select {
	case err := <-produced:
		return err
	default:
		return nil // still stopping: a stalled server does not hold up the exit
	}
}
