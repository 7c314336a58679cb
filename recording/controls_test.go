package recording

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestHeldPlayerWaitsAtTheEndForAControl: a dashboard's player neither ends
// nor polls at the last frame; a step back delivers again, as a jump.
func TestHeldPlayerWaitsAtTheEndForAControl(t *testing.T) {
	path, frames := episodeRecording(t)
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPlayer(r, PlayerOptions{Start: frames[27].Snapshot.Time, Speed: maxSpeed, Hold: true})
	defer p.Close()
	c, err := NewControls(p)
	if err != nil {
		t.Fatal(err)
	}
	for nextIndex(t, p, frames) != 29 {
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	_, err = p.Next(ctx)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("at the end Next returned %v, want it to wait", err)
	}
	go func() { time.Sleep(50 * time.Millisecond); c.Step(-3) }()
	for i := nextIndex(t, p, frames); i != 26; i = nextIndex(t, p, frames) {
	}
	if !p.Jumped() || !p.Paused() {
		t.Error("a step back must pause and count as a jump")
	}
	if s, ok := c.NextFinding(-1); !ok || s.ID != "row_lock_waits" || !s.Shown.Equal(frames[20].Snapshot.Time) {
		t.Errorf("previous finding: %+v %v, want the episode shown at frame 20", s, ok)
	}
}
