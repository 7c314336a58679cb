package importers

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testfiles"
	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/snapshot"
)

// headPressure is one reading as `head /proc/pressure/*` prints it, after
// secs seconds in which some task always waited for a CPU and some for I/O
// a quarter of the time.
func headPressure(secs int) string {
	var b strings.Builder
	for _, r := range []struct {
		name string
		some int
	}{{"cpu", secs * 1e6}, {"io", secs * 25e4}, {"memory", 0}} {
		fmt.Fprintf(&b, "==> /proc/pressure/%s <==\nsome avg10=0.00 avg60=0.00 avg300=0.00 total=%d\n", r.name, r.some)
		fmt.Fprintf(&b, "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n\n")
	}
	return b.String()
}

// A stall loop beside shell loops (the head layout, a second slipped) is
// read onto their timeline: each frame holds the stall clocks, the slipped
// second carries the last reading, marked so, and the frames' rates are the
// readings' own: the CPU stalled 100 %, I/O 25 %, on every frame.
func TestPressureLoopBesideShellLoops(t *testing.T) {
	dir := t.TempDir()
	const loops = "testdata/shell-loops-beside"
	files, err := os.ReadDir(loops)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		testfiles.CopyFile(t, filepath.Join(loops, f.Name()), filepath.Join(dir, f.Name()))
	}
	var log strings.Builder
	t0 := time.Date(2026, 12, 1, 4, 38, 26, 0, time.UTC)
	for i := range 10 {
		if i == 4 {
			continue // the loop slipped a second
		}
		at := t0.Add(time.Duration(i) * time.Second)
		fmt.Fprintf(&log, "TS %d.004 %s\n%s", at.Unix(), at.Format(time.DateTime), headPressure(i))
	}
	if err := os.WriteFile(filepath.Join(dir, "pressure.log"), []byte(log.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Import(dir, Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if c.Format != FormatShellLoops || len(c.Skipped) != 0 {
		t.Fatalf("format %s, skipped %q", c.Format, c.Skipped)
	}
	s := c.Sessions[0]
	if strings.Contains(strings.Join(s.Missing, ","), "no stall clocks") {
		t.Errorf("missing %q", s.Missing)
	}
	b := pipeline.NewBuilder(snapshot.ModeReplay, nil)
	rated, carried := 0, 0
	for _, sn := range s.Snapshots {
		if sn.Time.After(t0.Add(9 * time.Second)) {
			break
		}
		if sn.Pressure == nil {
			t.Fatalf("%s: no stall clocks", sn.Time.Format(time.TimeOnly))
		}
		if sn.Collectors[snapshot.CollectorPressure].Stale {
			carried++
		}
		f := b.Add(sn)
		if f.Rates == nil || f.Rates.Pressure == nil {
			continue
		}
		rated++
		if p := f.Rates.Pressure; p.CPU.Some != 100 || p.IO.Some != 25 {
			t.Errorf("%s: stall cpu %.0f %%, io %.0f %%; want 100 and 25", sn.Time.Format(time.TimeOnly), p.CPU.Some, p.IO.Some)
		}
	}
	if rated < 7 || carried != 1 {
		t.Errorf("%d frames rated, %d carried; want at least 7 and 1", rated, carried)
	}
}
