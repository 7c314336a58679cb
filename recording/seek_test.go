package recording

import (
	"path/filepath"
	"testing"
	"time"
)

func TestKeyframesEveryN(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k.mytop")
	writeFrames(t, path, 25, WriterOptions{KeyframeEvery: 10})
	r := openT(t, path)
	for i, e := range r.index {
		if want := i%10 == 0; e.keyframe != want {
			t.Errorf("frame %d keyframe=%v, want %v", i, e.keyframe, want)
		}
	}
}

func TestSeekFindsFrameAtOrBefore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.mytop")
	frames := writeFrames(t, path, 30, WriterOptions{KeyframeEvery: 10})
	r := openT(t, path)
	t0 := frames[0].Snapshot.Time
	cases := []struct {
		at   time.Time
		want int
	}{
		{t0.Add(-time.Hour), 0},
		{t0, 0},
		{t0.Add(12*time.Second + 500*time.Millisecond), 12},
		{t0.Add(13 * time.Second), 13},
		{t0.Add(time.Hour), 29},
	}
	for _, c := range cases {
		if got := r.Seek(c.at); got != c.want {
			t.Errorf("Seek(%v) = %d, want %d", c.at.Sub(t0), got, c.want)
		}
	}
}

// TestRandomAccessDecodesFromKeyframe visits frames out of order: each must
// decode from its own keyframe, not from whatever was cached last.
func TestRandomAccessDecodesFromKeyframe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ra.mytop")
	frames := writeFrames(t, path, 40, WriterOptions{KeyframeEvery: 10})
	r := openT(t, path)
	for _, i := range []int{37, 5, 6, 19, 20, 0, 39, 38, 11, 11, 12} {
		got, err := r.Snapshot(i)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		sameSnapshot(t, i, got, frames[i].Snapshot)
	}
}

// TestStepForwardCostsOneDecode checks the cache: after frame i, frame i+1
// decodes one frame, not its whole group.
func TestStepForwardCostsOneDecode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "st.mytop")
	writeFrames(t, path, 30, WriterOptions{KeyframeEvery: 30})
	r := openT(t, path)
	if _, err := r.Snapshot(20); err != nil {
		t.Fatal(err)
	}
	start := r.keyframeBefore(21)
	if !r.cache.valid || r.cache.pos != 20 || start != 0 {
		t.Fatalf("cache %+v", r.cache.pos)
	}
	// Decoding 21 must start from the cache: corrupting the keyframe does
	// not matter any more.
	if _, err := r.db.Exec(`UPDATE frames SET data = x'00' WHERE seq = 0`); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Snapshot(21); err != nil {
		t.Errorf("step forward re-decoded the group: %v", err)
	}
	if _, err := r.Snapshot(5); err == nil {
		t.Error("a seek back must decode from the (now damaged) keyframe")
	}
}
