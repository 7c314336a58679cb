package analyzers

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/snapshot"
)

// healthyDir holds the recordings of healthy runs that TestReplayHealthy
// replays in the fast tests (testdata/healthy/README.md says how each was
// made; scripts/record-healthy.sh makes them again).
const healthyDir = "testdata/healthy"

// healthyRecordingMax bounds a committed recording: enough for the routine
// work and the monitor's persistence, small enough to commit.
const healthyRecordingMax = 60 * time.Second

// saveHealthy writes the frames of a healthy live run from `from` on (at
// most healthyRecordingMax of them) to testdata/healthy/name.mytop, as
// `mytop-go record` would, when MYTOP_RECORD_HEALTHY is set; otherwise it
// does nothing. The run's own assertions decide whether it was healthy: a
// failed run writes nothing.
func saveHealthy(t *testing.T, name string, frames []*snapshot.Frame, from time.Time) {
	t.Helper()
	if os.Getenv("MYTOP_RECORD_HEALTHY") == "" {
		return
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("not recording %s: the run failed", name)
			return
		}
		var keep []*snapshot.Frame
		for _, f := range frames {
			if f.Snapshot == nil || f.Snapshot.Time.Before(from) {
				continue
			}
			if len(keep) > 0 && f.Snapshot.Time.Sub(keep[0].Snapshot.Time) >= healthyRecordingMax {
				break
			}
			keep = append(keep, f)
		}
		path := filepath.Join(healthyDir, name+".mytop")
		if err := os.MkdirAll(healthyDir, 0o755); err != nil {
			t.Error(err)
			return
		}
		for _, p := range []string{path, path + "-wal", path + "-shm"} {
			os.Remove(p)
		}
		wr, err := recording.Create(path, recording.WriterOptions{Interval: time.Second, Version: "healthy-test"})
		if err != nil {
			t.Error(err)
			return
		}
		for _, f := range keep {
			if err := wr.Write(f); err != nil {
				t.Error(err)
			}
		}
		if err := wr.Close(); err != nil {
			t.Error(err)
		}
		// Recordings are written 0600; a committed file is read by everyone.
		os.Chmod(path, 0o644)
		st, _ := os.Stat(path)
		if st != nil {
			t.Logf("recorded %d frames (%s) to %s: %d KB", len(keep),
				keep[len(keep)-1].Snapshot.Time.Sub(keep[0].Snapshot.Time).Round(time.Second), path, st.Size()>>10)
		}
	})
}
