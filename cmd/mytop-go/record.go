package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os/signal"

	"github.com/mytop-go/mytop-go/collectors"
	"github.com/mytop-go/mytop-go/internal/cli"
	"github.com/mytop-go/mytop-go/internal/selfstat"
	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/recording"
)

func runRecord(args []string, stdout, stderr io.Writer) error {
	selfstat.TuneGC()
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	lf := collectors.AddLiveFlags(fs)
	out := fs.String("o", "", "recording file to create")
	duration := fs.Duration("duration", 0, "stop after this long (default: until SIGINT/SIGTERM/SIGHUP)")
	redact := fs.Bool("redact", false, "replace literals in query text with ? before anything is written")
	appendTo := fs.Bool("append", false, "add to an existing recording instead of refusing")
	maxSize := fs.Int64("max-size", 0, "drop the oldest frames beyond this many bytes (0: no limit)")
	maxAge := fs.Duration("max-age", 0, "drop frames older than this (0: no limit)")
	keep := fs.Duration("keep-around", 0, "full detail only within this long of a finding at warning or above; one thin frame a minute otherwise")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("record needs -o FILE")
	}
	rec, err := recording.CreateHeadless(*out, recording.WriterOptions{
		Append: *appendTo, Redact: *redact, MaxSize: *maxSize, MaxAge: *maxAge,
		Interval: lf.Interval, Version: version,
	}, *keep)
	if err != nil {
		return err
	}
	defer rec.Close()
	live, err := lf.Open(stderr)
	if err != nil {
		return err
	}
	defer live.Close()

	ctx, cancel := signalContext()
	defer cancel()
	if *duration > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeout(ctx, *duration)
		defer stop()
	}
	status := notifyStatus()
	defer signal.Stop(status)
	b := liveBuilder()
	b.Recording = *out
	return rec.Finish(pipeline.Run(ctx, live, b, rec.Start(stderr, status)))
}
