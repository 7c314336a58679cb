package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mytop-go/mytop-go/changes"
	"github.com/mytop-go/mytop-go/ui"
	"github.com/mytop-go/mytop-go/ui/picture"

	"github.com/mytop-go/mytop-go/internal/cli"
	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/report"
	"github.com/mytop-go/mytop-go/snapshot"
)

func runReport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	sf := recording.AddSourceFlags(fs)
	format := fs.String("format", "text", "text, json, markdown or html (one self-contained page with charts)")
	out := fs.String("o", "", "write the report to this file instead of standard output")
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
	if *format == "html" {
		if err := drawWorst(src, &r); err != nil {
			return err
		}
	}
	return writeReport(*out, stdout, stderr, func(w io.Writer) error { return write(w, r) })
}

// drawWorst gives an HTML report the dashboard at its worst moment, drawn as
// the snapshot command draws it (replayed from the minutes before it).
func drawWorst(src *recording.Source, r *report.Report) error {
	if r.Timeline == nil || r.Timeline.Worst.IsZero() {
		return nil
	}
	frames, err := framesUpTo(src, r.Timeline.Worst)
	if err != nil || len(frames) == 0 {
		return err
	}
	last := frames[len(frames)-1]
	svg, err := picture.InlineSVG(ui.Render(last, 160, 48, frames[:len(frames)-1]))
	if err != nil {
		return err
	}
	r.SetPicture(svg)
	return nil
}

// writeReport writes to stdout, or to path through a temporary file renamed
// into place, so a failed report leaves no partial file.
func writeReport(path string, stdout, stderr io.Writer, write func(io.Writer) error) error {
	if path == "" {
		return write(stdout)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".report-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	err = write(tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err == nil {
		fmt.Fprintf(stderr, "mytop-go: wrote %s\n", path)
	}
	return err
}
