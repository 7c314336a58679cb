package recording

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testfiles"
	"github.com/mytop-go/mytop-go/snapshot"
)

var recT0 = time.Date(2026, 12, 1, 14, 2, 17, 0, time.UTC)

func frameAt(sec int) *snapshot.Frame {
	return &snapshot.Frame{Snapshot: &snapshot.Snapshot{Time: recT0.Add(time.Duration(sec) * time.Second)}}
}

func testRecorder(t *testing.T, fixed string) *LiveRecorder {
	r := NewLiveRecorder(fixed, WriterOptions{Interval: time.Second})
	r.dir = t.TempDir()
	r.now = func() time.Time { return recT0 }
	return r
}

func TestRecordKeyCreatesATimedFileAndClosesIt(t *testing.T) {
	r := testRecorder(t, "")
	r.Write(frameAt(0)) // off: dropped
	path, on, err := r.Toggle()
	if err != nil || !on {
		t.Fatalf("start: %v %v", on, err)
	}
	if want := filepath.Join(r.dir, "mytop-go-20261201-140217.mytop"); path != want {
		t.Errorf("path = %s, want %s", path, want)
	}
	r.Write(frameAt(1))
	r.Write(frameAt(2))
	if p, size, on := r.Status(); p != path || size <= 0 || !on {
		t.Errorf("status = %s %d %v", p, size, on)
	}
	if _, on, err := r.Toggle(); on || err != nil {
		t.Fatalf("stop: %v %v", on, err)
	}
	r.Write(frameAt(3)) // off again: dropped
	if n := testfiles.Len(t, Open, path); n != 2 {
		t.Errorf("%d frames recorded, want 2", n)
	}
	// Again within the same second: a second file, not a refusal.
	path2, on, err := r.Toggle()
	if err != nil || !on || path2 == path || !strings.HasSuffix(path2, "-2.mytop") {
		t.Errorf("restart = %s %v %v", path2, on, err)
	}
	if err := r.Close(); err != nil {
		t.Error(err)
	}
}

func TestRecordFlagFileResumesWithAGap(t *testing.T) {
	fixed := filepath.Join(t.TempDir(), "incident.mytop")
	r := testRecorder(t, fixed)
	r.Toggle()
	r.Write(frameAt(0))
	r.Write(frameAt(1))
	r.Toggle()
	r.Write(frameAt(2))
	if path, on, err := r.Toggle(); path != fixed || !on || err != nil {
		t.Fatalf("resume = %s %v %v", path, on, err)
	}
	r.Write(frameAt(5))
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	rd, err := Open(fixed)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	gaps, _ := rd.Gaps()
	if rd.Len() != 3 || len(gaps) != 1 || !gaps[0].From.Equal(recT0.Add(time.Second)) || !gaps[0].To.Equal(recT0.Add(5*time.Second)) {
		t.Errorf("frames %d, gaps %+v; want 3 frames and the pause 14:02:18–14:02:22", rd.Len(), gaps)
	}
}

func TestRecordFlagRefusesAnExistingFile(t *testing.T) {
	fixed := filepath.Join(t.TempDir(), "old.mytop")
	if err := os.WriteFile(fixed, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := testRecorder(t, fixed)
	if _, on, err := r.Toggle(); on || err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("toggle = %v %v, want a refusal", on, err)
	}
	if data, _ := os.ReadFile(fixed); string(data) != "precious" {
		t.Errorf("existing file changed: %q", data)
	}
}

// failingWriter fails every write, as a full disk would.
type failingWriter struct{ closed bool }

func (w *failingWriter) Write(*snapshot.Frame) error                { return errors.New("disk full") }
func (w *failingWriter) MarkGap(time.Time, time.Time, string) error { return nil }
func (w *failingWriter) Size() int64                                { return 4096 }
func (w *failingWriter) Close() error                               { w.closed = true; return nil }

func TestFailedWriteStopsRecordingNotTheDashboard(t *testing.T) {
	r := testRecorder(t, "")
	fw := &failingWriter{}
	r.create = func(string, bool) (frameWriter, error) { return fw, nil }
	r.Toggle()
	r.Write(frameAt(0))
	if _, _, on := r.Status(); on || !fw.closed {
		t.Fatalf("still recording after a failed write (closed %v)", fw.closed)
	}
	err := r.Close()
	if err == nil || !strings.Contains(err.Error(), "stopped: disk full") {
		t.Errorf("Close = %v, want the write error", err)
	}
}
