package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/rivo/tview"

	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/ui"
)

func runLive(args []string, stdout, stderr io.Writer) error {
	tuneGC()
	fs := flag.NewFlagSet("mytop-go", flag.ContinueOnError)
	fs.SetOutput(stderr)
	lf := addLiveFlags(fs)
	recordTo := fs.String("record", "", "record from the start to this file (R stops and resumes it)")
	redact := fs.Bool("redact", false, "in recordings (--record or R): replace literals in query text with ?")
	readOnly := fs.Bool("read-only", false, "disable KILL entirely")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if lf.isFleet() {
		if *recordTo != "" {
			return fmt.Errorf("--record takes one server; for several use: mytop-go serve --record DIR")
		}
		return runFleetDashboard(lf, *readOnly, stderr)
	}
	live, err := lf.open(stderr)
	if err != nil {
		return err
	}
	defer live.Close()

	rec := recording.NewLiveRecorder(*recordTo, recording.WriterOptions{Redact: *redact, Interval: lf.interval, Version: version})
	if *recordTo != "" {
		if _, _, err := rec.Toggle(); err != nil {
			return err
		}
	}
	dash := ui.New(ui.Options{Actions: live, ReadOnly: *readOnly, Recorder: rec})
	err = runDashboard(dash, live, newBuilder(snapshot.ModeLive), rec.Write)
	return errors.Join(err, rec.Close())
}

// runDashboard is the one feed of the dashboard, live or replay: src's frames
// go through pipeline.Run to record (when not nil), then to the screen, until
// the user quits, the terminal goes away or a signal ends it.
func runDashboard(dash *ui.Dashboard, src pipeline.Source, b *pipeline.Builder, record func(*snapshot.Frame)) error {
	ctx, cancel := dashboardSignals(dash.Tell)
	defer cancel()
	frames := make(chan *snapshot.Frame, 4)
	errc := make(chan error, 1)
	go func() {
		defer close(frames)
		errc <- pipeline.Run(ctx, src, b, func(f *snapshot.Frame) error {
			if record != nil {
				record(f)
			}
			select {
			case frames <- f:
			case <-ctx.Done():
			}
			return nil
		})
	}()
	app := tview.NewApplication()
	if err := dash.Run(ctx, app, frames); err != nil {
		return err
	}
	cancel()
	select {
	case err := <-errc:
		return err
	default:
		return nil
	}
}
