package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/changes"
	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/report"
	"github.com/mytop-go/mytop-go/snapshot"
)

// parseBaseline reads --baseline FROM..TO, each side as --from and --to
// take it (a time, or +offset from the source's start).
func parseBaseline(s string, start time.Time) (from, to time.Time, err error) {
	fromS, toS, ok := strings.Cut(s, "..")
	if !ok || fromS == "" || toS == "" {
		return from, to, fmt.Errorf("--baseline %q: want FROM..TO, e.g. 14:00..14:10 or +0s..+60s", s)
	}
	if from, err = recording.TimeFlag("baseline", fromS, start); err != nil {
		return from, to, err
	}
	if to, err = recording.TimeFlag("baseline", toS, start); err != nil {
		return from, to, err
	}
	if to.Before(from) {
		return from, to, fmt.Errorf("--baseline %q ends before it starts", s)
	}
	return from, to, nil
}

// windowOf sums the frames of src between from and to (zero: its ends), as
// the engine makes them.
func windowOf(src *recording.Source, from, to time.Time) (*changes.Window, report.Period, error) {
	w := changes.NewWindow()
	err := pipeline.Run(context.Background(), src.Frames(from, to), newBuilder(src.Mode), func(f *snapshot.Frame) error {
		w.Add(f)
		return nil
	})
	p := report.Period{Source: src.Name, From: w.From, To: w.To, Frames: w.Frames}
	if err == nil && w.Frames == 0 {
		err = fmt.Errorf("%s has no frames between %s and %s", src.Name, stampOr(from, "its start"), stampOr(to, "its end"))
	}
	return w, p, err
}

func stampOr(t time.Time, zero string) string {
	if t.IsZero() {
		return zero
	}
	return t.Format(time.DateTime)
}
