package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/mytop-go/mytop-go/internal/cli"
	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/report"
	"github.com/mytop-go/mytop-go/snapshot"
)

func runReport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addSourceFlags(fs)
	format := fs.String("format", "text", "text, json or markdown")
	fromS := fs.String("from", "", "start of the period (time, or +offset from the source's start)")
	toS := fs.String("to", "", "end of the period")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	write, err := report.WriterFor(*format)
	if err != nil {
		return err
	}
	src, err := openArg(fs, *sf, stderr)
	if err != nil {
		return err
	}
	defer src.Close()
	from, to, err := period(src, *fromS, *toS)
	if err != nil {
		return err
	}
	rb := report.NewBuilder(src.Name)
	err = pipeline.Run(context.Background(), src.Frames(from, to), newBuilder(src.Mode), func(f *snapshot.Frame) error {
		rb.Add(f)
		return nil
	})
	if err != nil {
		return err
	}
	return write(stdout, rb.Report())
}

// period parses --from/--to against the source's own time range.
func period(src *recording.Source, fromS, toS string) (from, to time.Time, err error) {
	start, _ := src.TimeRange()
	if fromS != "" {
		if from, err = recording.ParseTime(fromS, start); err != nil {
			return from, to, fmt.Errorf("--from: %v", err)
		}
	}
	if toS != "" {
		if to, err = recording.ParseTime(toS, start); err != nil {
			return from, to, fmt.Errorf("--to: %v", err)
		}
	}
	if !from.IsZero() && !to.IsZero() && to.Before(from) {
		return from, to, fmt.Errorf("--to %s is before --from %s", toS, fromS)
	}
	return from, to, nil
}

func addSourceFlags(fs *flag.FlagSet) *recording.SourceOptions {
	sf := &recording.SourceOptions{}
	fs.StringVar(&sf.Session, "session", "", "which collection of a multi-session capture (pt-stalk prefix)")
	fs.StringVar(&sf.Start, "start", "", "time of the first sample, for captures without a clock (mysqladmin)")
	return sf
}

// openArg opens the one SOURCE argument of fs.
func openArg(fs *flag.FlagSet, sf recording.SourceOptions, stderr io.Writer) (*recording.Source, error) {
	if fs.NArg() != 1 {
		return nil, fmt.Errorf("%s needs exactly one SOURCE (a recording or a capture file or directory)", fs.Name())
	}
	return recording.OpenSource(fs.Arg(0), sf, stderr)
}
