package importers_test

import (
	"context"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/analyzers"
	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/recording/importers"
	"github.com/mytop-go/mytop-go/report"
	"github.com/mytop-go/mytop-go/snapshot"
)

// TestFixtureIncidentFoundInEveryCaptureForm imports the same incident
// (MyISAM table locks and buffer-pool misses, captured three ways at once,
// starting 04:38:31) and checks that the analyzers name it in each form, at
// times that match the capture.
func TestFixtureIncidentFoundInEveryCaptureForm(t *testing.T) {
	if testing.Short() {
		t.Skip("imports 6 MB of captures")
	}
	start := time.Date(2026, 12, 1, 4, 38, 31, 0, time.UTC)
	cases := []struct {
		path string
		opts importers.Options
	}{
		{"testdata/shell-loops", importers.Options{Location: time.UTC}},
		{"testdata/ptstalk", importers.Options{Location: time.UTC}},
		// mysqladmin prints no clock: the capture started with the others.
		{"testdata/mysqladmin-ext-i1-r.txt", importers.Options{Location: time.UTC, Start: start}},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			capture, err := importers.Import(c.path, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			r := reportOf(t, capture.Sessions[len(capture.Sessions)-1])
			for _, id := range []string{analyzers.IDTableLockContention, analyzers.IDBufferPoolMiss} {
				e, ok := episode(r, id)
				if !ok {
					t.Errorf("%s not found; findings: %+v", id, r.Findings)
					continue
				}
				// The load ran for about 40 s from the start of the capture.
				if e.From.Before(start.Add(-10*time.Second)) || e.From.After(start.Add(20*time.Second)) ||
					e.Severity < snapshot.Warning || e.Frames < 10 {
					t.Errorf("%s: %s first seen %s for %d frames, want a warning from about %s",
						id, e.Severity, e.From.Format(time.TimeOnly), e.Frames, start.Format(time.TimeOnly))
				}
			}
		})
	}
}

func reportOf(t *testing.T, s importers.Session) report.Report {
	t.Helper()
	rb := report.NewBuilder("capture")
	b := pipeline.NewBuilder("IMPORT", analyzers.NewEngine(analyzers.DefaultConfig()))
	err := pipeline.Run(context.Background(), s.Source(), b, func(f *snapshot.Frame) error {
		rb.Add(f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return rb.Report()
}

func episode(r report.Report, id string) (report.Episode, bool) {
	for _, e := range r.Findings {
		if e.ID == id {
			return e, true
		}
	}
	return report.Episode{}, false
}
