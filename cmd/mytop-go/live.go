package main

import (
	"context"
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
	fs := flag.NewFlagSet("mytop-go", flag.ContinueOnError)
	fs.SetOutput(stderr)
	lf := addLiveFlags(fs)
	recordTo := fs.String("record", "", "also record every frame to this file")
	redact := fs.Bool("redact", false, "with --record: replace literals in query text with ?")
	readOnly := fs.Bool("read-only", false, "disable KILL entirely")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	live, err := lf.open(stderr)
	if err != nil {
		return err
	}
	defer live.Close()

	b := newBuilder("LIVE")
	var rec *recording.Writer
	if *recordTo != "" {
		rec, err = recording.Create(*recordTo, recording.WriterOptions{Redact: *redact, Interval: lf.interval, Version: version})
		if err != nil {
			return err
		}
		defer rec.Close()
		b.Recording = *recordTo
	}
	dash := ui.New(ui.Options{Actions: liveActions{live}, ReadOnly: *readOnly})
	return runDashboard(dash, live, b, rec)
}

// runDashboard feeds frames from src to the dashboard (and the recorder, when
// given) until the user quits or the terminal goes away.
func runDashboard(dash *ui.Dashboard, src pipeline.Source, b *pipeline.Builder, rec *recording.Writer) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	frames := make(chan *snapshot.Frame, 4)
	errc := make(chan error, 1)
	go func() {
		defer close(frames)
		errc <- pipeline.Run(ctx, src, b, func(f *snapshot.Frame) error {
			if rec != nil {
				if err := rec.Write(f); err != nil {
					return fmt.Errorf("recording: %w", err)
				}
			}
			select {
			case frames <- f:
			case <-ctx.Done():
			}
			return nil
		})
	}()
	app := tview.NewApplication()
	if err := dash.Run(app, frames); err != nil {
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
