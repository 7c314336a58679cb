package recording

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// episodeRecording writes 30 one-second frames of a small server; findings
// run in episodes at frames 5..9 and 20..24.
func episodeRecording(t *testing.T) (string, []*snapshot.Frame) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.mytop")
	w, err := Create(path, WriterOptions{KeyframeEvery: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	srv := newFakeServer(t, 31, 5)
	var frames []*snapshot.Frame
	for i := range 30 {
		f := &snapshot.Frame{Seq: i, Snapshot: func() *snapshot.Snapshot { srv.step(); return srv.snapshot() }()}
		for _, onset := range []int{5, 20} {
			if i >= onset && i < onset+5 {
				// Analyzers back-date the onset to where the signal began.
				since := frames[onset-1].Snapshot.Time.Add(-2 * time.Second)
				f.Findings = []snapshot.Finding{{ID: "row_lock_waits", Title: "waits", Advice: "find the blocker", Since: since}}
			}
		}
		frames = append(frames, f)
		if err := w.Write(f); err != nil {
			t.Fatal(err)
		}
	}
	return path, frames
}

func nextIndex(t *testing.T, p *Player, frames []*snapshot.Frame) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	s, err := p.Next(ctx)
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	for i, f := range frames {
		if f.Snapshot.Time.Equal(s.Time) {
			return i
		}
	}
	t.Fatalf("unknown frame at %v", s.Time)
	return -1
}

func TestPlayerPlaysAtRecordedPaceTimesSpeed(t *testing.T) {
	path, frames := episodeRecording(t)
	p := NewPlayer(openT(t, path), PlayerOptions{Speed: 100})
	start := time.Now()
	for i := range frames {
		if got := nextIndex(t, p, frames); got != i {
			t.Fatalf("got frame %d, want %d", got, i)
		}
	}
	// 29 one-second gaps at 100x: about 290 ms.
	if el := time.Since(start); el < 250*time.Millisecond || el > 3*time.Second {
		t.Errorf("played 30 frames in %v, want about 290ms", el)
	}
	if _, err := p.Next(context.Background()); !errors.Is(err, io.EOF) {
		t.Errorf("after the end: %v, want EOF", err)
	}
}

func TestPlayerPauseAndStep(t *testing.T) {
	path, frames := episodeRecording(t)
	p := NewPlayer(openT(t, path), PlayerOptions{})
	nextIndex(t, p, frames)
	if !p.TogglePause() {
		t.Fatal("TogglePause should report paused")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if s, err := p.Next(ctx); err == nil {
		t.Fatalf("paused player delivered %v", s.Time)
	}
	p.Step(3)
	if got := nextIndex(t, p, frames); got != 3 || !p.Jumped() {
		t.Errorf("Step(3) gave frame %d (jumped %v), want 3 and a jump", got, p.Jumped())
	}
	p.Step(1)
	if got := nextIndex(t, p, frames); got != 4 || p.Jumped() {
		t.Errorf("Step(1) gave frame %d (jumped %v), want 4 without a jump", got, p.Jumped())
	}
	p.Step(-2)
	if got := nextIndex(t, p, frames); got != 2 || !p.Jumped() || !p.Paused() {
		t.Errorf("Step(-2) gave frame %d, want 2, still paused", got)
	}
	if i, at := p.Position(); i != 2 || !at.Equal(frames[2].Snapshot.Time) {
		t.Errorf("Position = %d %v", i, at)
	}
}

func TestPlayerSeekDeliversWarmupThenTarget(t *testing.T) {
	path, frames := episodeRecording(t)
	p := NewPlayer(openT(t, path), PlayerOptions{Warmup: 3, Start: frames[20].Snapshot.Time})
	p.TogglePause()
	for want := 17; want <= 20; want++ {
		if got := nextIndex(t, p, frames); got != want {
			t.Fatalf("got %d, want %d", got, want)
		}
		if jumped := p.Jumped(); jumped != (want == 17) {
			t.Errorf("frame %d jumped=%v", want, jumped)
		}
	}
	p.Step(-1)
	for want := 16; want <= 19; want++ {
		if got := nextIndex(t, p, frames); got != want {
			t.Fatalf("after Step(-1) got %d, want %d (warm-up, then 19)", got, want)
		}
	}
}

func TestPlayerNextFindingJumpsBetweenOnsets(t *testing.T) {
	path, frames := episodeRecording(t)
	p := NewPlayer(openT(t, path), PlayerOptions{})
	p.TogglePause()
	nextIndex(t, p, frames)
	for _, c := range []struct{ dir, want int }{{1, 5}, {1, 20}, {-1, 5}} {
		at, ok := p.NextFinding(c.dir)
		if !ok || !at.Equal(frames[c.want].Snapshot.Time) {
			t.Fatalf("NextFinding(%d) = %v %v, want frame %d", c.dir, at, ok, c.want)
		}
		if got := nextIndex(t, p, frames); got != c.want {
			t.Errorf("after NextFinding(%d) got frame %d, want %d", c.dir, got, c.want)
		}
	}
	if _, ok := p.NextFinding(-1); ok {
		t.Error("no finding starts before frame 5")
	}
}

func TestPlayerFollowsAGrowingRecording(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.mytop")
	w, err := Create(path, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	srv := newFakeServer(t, 41, 5)
	frames := []*snapshot.Frame{srv.frame(0), srv.frame(1)}
	written := 0
	add := func() {
		if err := w.Write(frames[written]); err != nil {
			t.Error(err)
		}
		written++
	}
	add()
	p := NewPlayer(openT(t, path), PlayerOptions{Follow: true, Speed: 1000})
	nextIndex(t, p, frames)
	time.AfterFunc(100*time.Millisecond, add)
	if got := nextIndex(t, p, frames); got != 1 {
		t.Errorf("followed to frame %d, want 1", got)
	}
}
