package pipeline

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// countingAnalyzer raises one finding whose title records the window it saw,
// so the test can check what the builder hands to analyzers.
type countingAnalyzer struct{}

func (countingAnalyzer) Evaluate(w []*snapshot.Frame) ([]snapshot.Finding, map[string]string) {
	last := w[len(w)-1]
	return []snapshot.Finding{{ID: "window", Title: fmt.Sprintf("%d frames, last seq %d", len(w), last.Seq)}}, nil
}

func series(n int) []*snapshot.Snapshot {
	t0 := time.Date(2026, 12, 1, 4, 0, 0, 0, time.UTC)
	out := make([]*snapshot.Snapshot, n)
	for i := range out {
		out[i] = &snapshot.Snapshot{
			Time:   t0.Add(time.Duration(i) * time.Second),
			Status: map[string]string{"Uptime": fmt.Sprint(100 + i), "Questions": fmt.Sprint(1000 + 7*i)},
		}
	}
	return out
}

func TestRunBuildsFramesWithRatesAndFindings(t *testing.T) {
	var frames []*snapshot.Frame
	b := NewBuilder("REPLAY", countingAnalyzer{})
	err := Run(context.Background(), NewSliceSource(series(WindowSize+5)), b, func(f *snapshot.Frame) error {
		frames = append(frames, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != WindowSize+5 {
		t.Fatalf("got %d frames", len(frames))
	}
	if frames[0].Rates != nil {
		t.Error("first frame must have no rates")
	}
	if q, _ := frames[1].Rates.Rate("Questions"); q != 7 {
		t.Errorf("Questions/s = %v, want 7", q)
	}
	last := frames[len(frames)-1]
	want := fmt.Sprintf("%d frames, last seq %d", WindowSize, WindowSize+4)
	if last.Findings[0].Title != want || last.Mode != "REPLAY" {
		t.Errorf("last frame: %q mode %q, want %q", last.Findings[0].Title, last.Mode, want)
	}
	if w := b.Window(); w[0].Seq != 5 || cap(w) != WindowSize {
		t.Errorf("window starts at seq %d (cap %d), want 5 (cap %d)", w[0].Seq, cap(w), WindowSize)
	}
}

func TestRunStopsOnEmitError(t *testing.T) {
	stop := fmt.Errorf("stop")
	n := 0
	err := Run(context.Background(), NewSliceSource(series(10)), NewBuilder("LIVE", nil), func(*snapshot.Frame) error {
		n++
		if n == 3 {
			return stop
		}
		return nil
	})
	if err != stop || n != 3 {
		t.Errorf("err=%v after %d frames", err, n)
	}
}
