package recording

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// readAll runs a FrameSource to the end, returning the snapshots and the
// skipped-frame errors.
func readAll(t *testing.T, r *Reader) ([]*snapshot.Snapshot, []error) {
	t.Helper()
	src := r.Source(zeroTime, zeroTime)
	var skipped []error
	src.OnSkip = func(err error) { skipped = append(skipped, err) }
	var out []*snapshot.Snapshot
	for {
		s, err := src.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return out, skipped
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
}

func flipByte(t *testing.T, r *Reader, seq int64, at int) {
	t.Helper()
	var data []byte
	if err := r.db.QueryRow(`SELECT data FROM frames WHERE seq = ?`, seq).Scan(&data); err != nil {
		t.Fatal(err)
	}
	data[min(at, len(data)-1)] ^= 0x5a
	if _, err := r.db.Exec(`UPDATE frames SET data = ? WHERE seq = ?`, data, seq); err != nil {
		t.Fatal(err)
	}
}

func TestBitFlippedFramesAreSkippedNotFatal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.mytop")
	frames := writeFrames(t, path, 30, WriterOptions{KeyframeEvery: 10})
	r := openT(t, path)
	flipByte(t, r, 13, 40) // breaks 13..19: they are deltas on 13
	// Frame 29 gets valid zstd around invalid JSON: only it is lost.
	raw28, err := r.rawFrame(28)
	if err != nil {
		t.Fatal(err)
	}
	bad, _ := r.codec.encode(nil, []byte(`{"time": not json`), raw28)
	if _, err := r.db.Exec(`UPDATE frames SET data = ? WHERE seq = 29`, bad); err != nil {
		t.Fatal(err)
	}
	r.cache = decodeCache{}
	got, skipped := readAll(t, r)
	if len(got) != 30-7-1 || len(skipped) != 8 {
		t.Fatalf("read %d frames, skipped %d; want 22 and 8", len(got), len(skipped))
	}
	want := append(frames[:13:13], frames[20:29]...)
	for i := range got {
		sameSnapshot(t, i, got[i], want[i].Snapshot)
	}
	first := skipped[0].Error()
	if !strings.Contains(first, "frame 13 at 2026-12-01T04:00:14Z") || strings.Contains(first, "\n") {
		t.Errorf("skip report %q should name the frame and its time on one line", first)
	}
	if !strings.Contains(skipped[7].Error(), "json") {
		t.Errorf("last skip %q should blame the JSON", skipped[7])
	}
}

// TestTruncatedLogReplaysCompleteFrames copies a recording while its writer
// is still open (the frames sit in the write-ahead log), cuts the log short
// at many points, and reads each copy: every complete frame must come back.
func TestTruncatedLogReplaysCompleteFrames(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "live.mytop")
	w, err := Create(path, WriterOptions{KeyframeEvery: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	srv := newFakeServer(t, 9, 20)
	var frames []*snapshot.Frame
	for i := range 40 {
		frames = append(frames, srv.frame(i))
		if err := w.Write(frames[i]); err != nil {
			t.Fatal(err)
		}
	}
	db, _ := os.ReadFile(path)
	wal, _ := os.ReadFile(path + "-wal")
	if len(wal) == 0 {
		t.Fatal("expected frames in the write-ahead log")
	}
	prevLen := 0
	for _, cut := range []int{0, len(wal) / 7, len(wal) / 3, len(wal)/2 + 13, len(wal) - 100, len(wal)} {
		cp := filepath.Join(dir, "copy.mytop")
		os.Remove(cp + "-shm")
		os.WriteFile(cp, db, 0o600)
		os.WriteFile(cp+"-wal", wal[:cut], 0o600)
		n := readCopy(t, cp, frames)
		t.Logf("cut %d of %d: %d frames", cut, len(wal), n)
		if n < prevLen {
			t.Errorf("cut at %d: %d frames, fewer than a shorter cut (%d)", cut, n, prevLen)
		}
		prevLen = n
	}
	if prevLen != 40 {
		t.Errorf("the whole log gave %d frames, want 40", prevLen)
	}
}

// readCopy opens cp and checks each frame against want; it returns how many
// frames were there.
func readCopy(t *testing.T, cp string, want []*snapshot.Frame) int {
	t.Helper()
	r, err := Open(cp)
	if err != nil {
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("multi-line error %q", err)
		}
		return 0
	}
	defer r.Close()
	got, skipped := readAll(t, r)
	if len(skipped) > 0 {
		t.Errorf("%s: %v", filepath.Base(cp), skipped[0])
	}
	for i := range got {
		sameSnapshot(t, i, got[i], want[i].Snapshot)
	}
	return len(got)
}

func TestTruncatedMainFileFailsCleanly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.mytop")
	writeFrames(t, path, 40, WriterOptions{})
	data, _ := os.ReadFile(path)
	for _, cut := range []int{100, len(data) / 2, len(data) - 4096} {
		os.WriteFile(path, data[:cut], 0o600)
		r, err := Open(path)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("cut %d: multi-line error %q", cut, err)
			}
			continue
		}
		for i := range r.Len() {
			r.Snapshot(i) // errors are fine; a panic is not
		}
		r.Close()
	}
}
