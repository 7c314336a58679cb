package main

import (
	"context"
	"flag"
	"github.com/mytop-go/mytop-go/changes"
	"io"

	"github.com/mytop-go/mytop-go/internal/cli"
	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/report"
	"github.com/mytop-go/mytop-go/snapshot"
)

func runReport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	sf := recording.AddSourceFlags(fs)
	format := fs.String("format", "text", "text, json or markdown")
	fromS := fs.String("from", "", "start of the period (time, or +offset from the source's start)")
	toS := fs.String("to", "", "end of the period")
	baseline := fs.String("baseline", "", "a healthy window FROM..TO of the same source to compare the period with (what changed)")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	write, err := report.WriterFor(*format)
	if err != nil {
		return err
	}
	src, err := sf.Open(stderr)
	if err != nil {
		return err
	}
	defer src.Close()
	start, _ := src.TimeRange()
	from, to, err := recording.Period(*fromS, *toS, start)
	if err != nil {
		return err
	}
	rb := report.NewBuilder(src.Name)
	incident := changes.NewWindow()
	err = pipeline.Run(context.Background(), src.Frames(from, to), newBuilder(src.Mode), func(f *snapshot.Frame) error {
		rb.Add(f)
		incident.Add(f)
		return nil
	})
	if err != nil {
		return err
	}
	r := rb.Report()
	if *baseline != "" {
		bFrom, bTo, err := parseBaseline(*baseline, start)
		if err != nil {
			return err
		}
		healthy, period, err := windowOf(src, bFrom, bTo)
		if err != nil {
			return err
		}
		r.SetBaseline(period, changes.Compare(healthy, incident))
	}
	return write(stdout, r)
}
