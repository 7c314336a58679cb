package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/mytop-go/mytop-go/pipeline"
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
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	write, err := reportWriter(*format)
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
	rb := report.NewBuilder(src.name)
	err = pipeline.Run(context.Background(), src.frames(from, to), newBuilder(src.mode), func(f *snapshot.Frame) error {
		rb.Add(f)
		return nil
	})
	if err != nil {
		return err
	}
	return write(stdout, rb.Report())
}

func reportWriter(format string) (func(io.Writer, report.Report) error, error) {
	switch format {
	case "json":
		return report.WriteJSON, nil
	case "text":
		return report.WriteText, nil
	case "markdown", "md":
		return report.WriteMarkdown, nil
	}
	return nil, fmt.Errorf("--format %q: use text, json or markdown", format)
}

// period parses --from/--to against the source's own time range.
func period(src *source, fromS, toS string) (from, to time.Time, err error) {
	start, _ := src.timeRange()
	if fromS != "" {
		if from, err = parseTime(fromS, start); err != nil {
			return from, to, fmt.Errorf("--from: %v", err)
		}
	}
	if toS != "" {
		if to, err = parseTime(toS, start); err != nil {
			return from, to, fmt.Errorf("--to: %v", err)
		}
	}
	if !from.IsZero() && !to.IsZero() && to.Before(from) {
		return from, to, fmt.Errorf("--to %s is before --from %s", toS, fromS)
	}
	return from, to, nil
}

func addSourceFlags(fs *flag.FlagSet) *sourceFlags {
	sf := &sourceFlags{}
	fs.StringVar(&sf.session, "session", "", "which collection of a multi-session capture (pt-stalk prefix)")
	fs.StringVar(&sf.start, "start", "", "time of the first sample, for captures without a clock (mysqladmin)")
	return sf
}

// openArg opens the one SOURCE argument of fs.
func openArg(fs *flag.FlagSet, sf sourceFlags, stderr io.Writer) (*source, error) {
	if fs.NArg() != 1 {
		return nil, fmt.Errorf("%s needs exactly one SOURCE (a recording or a capture file or directory)", fs.Name())
	}
	return openSource(fs.Arg(0), sf, stderr)
}
