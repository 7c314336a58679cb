package analyzers

import (
	"path/filepath"
	"testing"

	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/snapshot"
)

// replayedFinding writes frames to a recording, replays the file through a
// fresh engine with cfg, and returns rule id's finding at the last frame, or
// nil: what `mytop-go replay` would show of a live run.
func replayedFinding(t *testing.T, frames []*snapshot.Frame, cfg Config, id string) *snapshot.Finding {
	t.Helper()
	r := recorded(t, frames)
	b := pipeline.NewBuilder("REPLAY", NewEngine(cfg))
	var last *snapshot.Frame
	for i := range r.Len() {
		s, err := r.Snapshot(i)
		if err != nil {
			t.Fatal(err)
		}
		last = b.Add(s)
	}
	if last == nil {
		return nil
	}
	return findingIn(last, id)
}

// sameInReplay fails unless the replay of frames shows id's finding with the
// live title.
func sameInReplay(t *testing.T, frames []*snapshot.Frame, cfg Config, live *snapshot.Finding) {
	t.Helper()
	got := replayedFinding(t, frames, cfg, live.ID)
	if got == nil {
		t.Errorf("replay shows no %s (live: %s)", live.ID, live.Title)
		return
	}
	if got.Title != live.Title {
		t.Errorf("%s replayed as %q, live %q", live.ID, got.Title, live.Title)
	}
}

// recorded writes frames to a recording as `mytop-go record` would and
// opens it again, closed when the test ends: what replay and report read.
func recorded(t *testing.T, frames []*snapshot.Frame) *recording.Reader {
	t.Helper()
	path := filepath.Join(t.TempDir(), "frames.mytop")
	wr, err := recording.Create(path, recording.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range frames {
		if err := wr.Write(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := wr.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}
