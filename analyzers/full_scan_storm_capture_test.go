package analyzers

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/recording/importers"
	"github.com/mytop-go/mytop-go/snapshot"
)

// Captures of the status counters alone, made with `mariadb-admin ext -i1`
// (the common form, absolute counters) on throwaway MariaDB 10.11 servers by
// TestMakeScanStormCaptures, gzipped (a sample is some 50 KB of padded
// table): storm.txt.gz, four clients looking users up by email in a
// 200,000-row table whose email index is dropped from under them 8 s in;
// quiet.txt.gz, its twin: the same lookups with their index, from 10 s in
// beside a mariadb-dump of the users table again and again, from 20 s in
// beside two clients scanning a 50-row table as well.
const scanCaptures = "testdata/mysqladmin-scans"

// importGz imports a gzipped capture, as a DBA's file would be read once
// unpacked.
func importGz(t *testing.T, name string) []*snapshot.Snapshot {
	t.Helper()
	in, err := os.Open(filepath.Join(scanCaptures, name))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), strings.TrimSuffix(name, ".gz"))
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	c, err := importers.Import(path, importers.Options{Start: t0, Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if c.Format != importers.FormatMysqladmin || len(c.Sessions) != 1 {
		t.Fatalf("%s: format %s, %d sessions", name, c.Format, len(c.Sessions))
	}
	return c.Sessions[0].Snapshots
}

// replayScans runs the engine over a capture, handing each frame to see
// as it is made (older frames are thinned as the window moves on).
func replayScans(snaps []*snapshot.Snapshot, see func(*snapshot.Frame)) {
	b := pipeline.NewBuilder("REPLAY", NewEngine(DefaultConfig()))
	for _, s := range snaps {
		see(b.Add(s))
	}
}

// The capture of the storm names the scans within 10 s of the first second
// in which they read whole tables again and again, saying the statements
// are unknown, and holds it while they last; full_scan_select, which needs
// statements, says it cannot run.
func TestReplayMysqladminScanStorm(t *testing.T) {
	var onset, named time.Time
	held, frames, missed, linked := 0, 0, 0, 0
	replayScans(importGz(t, "storm.txt.gz"), func(f *snapshot.Frame) {
		frames++
		// The pool misses while the scans read the table from disk: the
		// storm is their cause.
		if m := findingIn(f, IDBufferPoolMiss); m != nil && findingIn(f, IDFullScanStorm) != nil {
			missed++
			if slices.Contains(m.CausedBy, IDFullScanStorm) {
				linked++
			}
		}
		scans, _ := f.Rates.Rate("Select_scan")
		rows, _ := f.Rates.Rate("Handler_read_rnd_next")
		if onset.IsZero() && scans >= 1 && rows >= 10000*scans {
			onset = f.Time()
		}
		x := findingIn(f, IDFullScanStorm)
		if x == nil {
			return
		}
		if onset.IsZero() {
			t.Fatalf("raised at %s before the scans began: %s", f.Time().Format(time.TimeOnly), x.Title)
		}
		if x.Severity < snapshot.Warning {
			return
		}
		held++
		if !named.IsZero() {
			return
		}
		named = f.Time()
		namedInTime(t, x, named.Sub(onset))
		mustContain(t, *x, "full table scans again and again", "rows each", "statements are not in this capture",
			"Rows_sent", "which statements and which table", "SHOW FULL PROCESSLIST")
		if f.NotApplicable[IDFullScanSelect] == "" {
			t.Errorf("full_scan_select not said to be not applicable: %v", f.NotApplicable)
		}
	})
	if named.IsZero() {
		t.Fatalf("%s not raised in %d frames (scans from %v)", IDFullScanStorm, frames, onset)
	}
	if held < 10 {
		t.Errorf("a warning in %d frames of the storm, want it held", held)
	}
	if missed == 0 || linked < missed*9/10 {
		t.Errorf("buffer_pool_miss caused by the storm in %d of the %d frames both stood", linked, missed)
	}
}

// Its twin: indexed lookups, then dumps, then scans of a 50-row table: quiet.
func TestReplayMysqladminScansQuiet(t *testing.T) {
	frames, dumped := 0, false
	replayScans(importGz(t, "quiet.txt.gz"), func(f *snapshot.Frame) {
		frames++
		if x := findingIn(f, IDFullScanStorm); x != nil {
			t.Errorf("%s at %s: %s %v", x.ID, f.Time().Format(time.TimeOnly), x.Title, x.Evidence)
		}
		rows, _ := f.Rates.Rate("Handler_read_rnd_next")
		sent, _ := f.Rates.Rate("Rows_sent")
		dumped = dumped || rows > 100000 && sent > rows/2
	})
	if frames < 25 {
		t.Fatalf("%d frames", frames)
	}
	if !dumped {
		t.Error("no second of the capture dumps the users table: not the twin it should be")
	}
}
