package pipeline

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/snaptest"
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
	return snaptest.Series(t0, n, snaptest.Counter("Uptime", 100, 1), snaptest.Counter("Questions", 1000, 7))
}

func TestRunBuildsFramesWithRatesAndFindings(t *testing.T) {
	var frames []*snapshot.Frame
	b := NewBuilder("REPLAY", countingAnalyzer{})
	err := Run(context.Background(), NewSliceSource(series(windowSize+5)), b, func(f *snapshot.Frame) error {
		frames = append(frames, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != windowSize+5 {
		t.Fatalf("got %d frames", len(frames))
	}
	if frames[0].Rates != nil {
		t.Error("first frame must have no rates")
	}
	if q, _ := frames[1].Rates.Rate("Questions"); q != 7 {
		t.Errorf("Questions/s = %v, want 7", q)
	}
	last := frames[len(frames)-1]
	want := fmt.Sprintf("%d frames, last seq %d", windowSize, windowSize+4)
	if last.Findings[0].Title != want || last.Mode != "REPLAY" {
		t.Errorf("last frame: %q mode %q, want %q", last.Findings[0].Title, last.Mode, want)
	}
	if w := b.Window(); w[0].Seq != 5 || cap(w) != windowSize {
		t.Errorf("window starts at seq %d (cap %d), want 5 (cap %d)", w[0].Seq, cap(w), windowSize)
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

// threadAnalyzer asks for the details of the last 3 frames and Uptime of
// the others, and records how many processlists the window it saw carried.
type threadAnalyzer struct{ withRows []int }

func (a *threadAnalyzer) DetailFrames() int    { return 3 }
func (a *threadAnalyzer) KeptStatus() []string { return []string{"Uptime"} }

func (a *threadAnalyzer) Evaluate(w []*snapshot.Frame) ([]snapshot.Finding, map[string]string) {
	n := 0
	for _, f := range w {
		if f.Snapshot.Processlist != nil {
			n++
		}
	}
	a.withRows = append(a.withRows, n)
	return nil, nil
}

func TestBuilderThinsFramesBehindTheAnalyzersHistory(t *testing.T) {
	a := &threadAnalyzer{}
	b := NewBuilder("LIVE", a)
	raw := "=====\nINNODB MONITOR OUTPUT\n"
	shared := &snapshot.InnoDBStatus{Raw: raw}
	var emitted []*snapshot.Frame
	for i, s := range series(10) {
		s.Processlist = []snapshot.Process{{ID: int64(i), Info: "select 1"}}
		s.Explains = map[string]*snapshot.Explain{"select ?": {}}
		s.InnoDB = shared
		emitted = append(emitted, b.Add(s))
	}
	if got, want := a.withRows, []int{1, 2, 3, 3, 3, 3, 3, 3, 3, 3}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("processlists the analyzer saw per frame: %v, want %v", got, want)
	}
	w := b.Window()
	old, newest := w[len(w)-4], w[len(w)-3]
	if old.Snapshot.Processlist != nil || old.Snapshot.Explains != nil || old.Snapshot.InnoDB.Raw != "" {
		t.Errorf("frame %d kept its thread rows, plans or raw InnoDB text", old.Seq)
	}
	if newest.Snapshot.Processlist == nil || newest.Snapshot.InnoDB.Raw != raw {
		t.Errorf("frame %d, within the history, lost its thread rows", newest.Seq)
	}
	if old.Snapshot.InnoDB != w[0].Snapshot.InnoDB {
		t.Error("one shared InnoDB status became one slim copy per frame")
	}
	if up, _ := old.Snapshot.StatusValue("Uptime"); old.Snapshot.Status != nil || old.Snapshot.Kept.Len() != 1 || up == "" || old.Rates == nil || old.Rates.Status != nil {
		t.Errorf("a thinned frame keeps status %v (kept %d) and rates %+v, want Uptime alone and the interval", old.Snapshot.Status, old.Snapshot.Kept.Len(), old.Rates)
	}
	if newest.Snapshot.Status["Questions"] == "" || newest.Rates.Status == nil {
		t.Error("a frame within the history lost its counters or rates")
	}
	for _, f := range emitted {
		if f.Snapshot.Processlist == nil || f.Snapshot.InnoDB.Raw != raw {
			t.Fatalf("frame %d handed to consumers was changed afterwards", f.Seq)
		}
	}
}
