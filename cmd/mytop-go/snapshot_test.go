package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/ui"
	"github.com/mytop-go/mytop-go/ui/picture"
)

// TestSnapshotText checks that `snapshot -o x.txt` is exactly what the
// dashboard draws on a simulation screen at that moment.
func TestSnapshotText(t *testing.T) {
	out := filepath.Join(t.TempDir(), "at.txt")
	run(t, "snapshot", "testdata/incident.mytop", "--at", "+36s", "--width", "120", "--height", "40", "-o", out)
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	src, err := recording.OpenSource("testdata/incident.mytop", recording.SourceOptions{}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	start, _ := src.TimeRange()
	frames, err := framesUpTo(src, start.Add(36*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	last := frames[len(frames)-1]
	want := ui.ScreenText(ui.Render(last, 120, 40, frames[:len(frames)-1]))
	if string(got) != want {
		t.Errorf("snapshot text differs from the simulation screen:\n--- got\n%s\n--- want\n%s", got, want)
	}
	for _, s := range []string{"full_scan_update", "query_cache_contention", "REPLAY"} {
		if !bytes.Contains(got, []byte(s)) {
			t.Errorf("%q not in the snapshot at +36s", s)
		}
	}
}

// TestSnapshotPNG checks the picture decodes and has one cell per column/row.
func TestSnapshotPNG(t *testing.T) {
	out := filepath.Join(t.TempDir(), "at.png")
	run(t, "snapshot", "testdata/incident.mytop", "--at", "+36s", "--width", "100", "--height", "30", "-o", out)
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 100*picture.CellWidth || b.Dy() != 30*picture.CellHeight {
		t.Errorf("size %v, want %d×%d", b, 100*picture.CellWidth, 30*picture.CellHeight)
	}
}

func TestSnapshotRejectsOutsideTimes(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := realMain([]string{"snapshot", "testdata/incident.mytop", "--at", "1999-01-01 00:00:00", "-o", filepath.Join(t.TempDir(), "x.txt")}, &stdout, &stderr)
	if code == 0 || !bytes.Contains(stderr.Bytes(), []byte("outside the source")) {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

func run(t *testing.T, args ...string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := realMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("mytop-go %q: exit %d: %s", args, code, stderr.String())
	}
}
