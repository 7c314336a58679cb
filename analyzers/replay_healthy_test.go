package analyzers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/snapshot"
)

// The routine-work review's healthy runs, recorded from real throwaway servers by their
// integration tests (saveHealthy; testdata/healthy/README.md), replayed
// through the analyzers with the default config in the fast tests: nothing
// at warning or above, and the routine work named where the run has it.
func TestReplayHealthy(t *testing.T) {
	cases := []struct {
		file string
		// check looks at the replayed frames and the findings seen (by
		// ID/severity, the first of each).
		check func(t *testing.T, frames []*snapshot.Frame, seen map[string]*snapshot.Finding)
	}{
		{"dump-under-load", func(t *testing.T, frames []*snapshot.Frame, seen map[string]*snapshot.Finding) {
			n, name := routineFrames(frames, toolDump)
			if n == 0 {
				t.Error("the dump's sessions are not recognised")
			}
			t.Logf("mariadb-dump named in %d of %d frames, e.g. %s", n, len(frames), name)
			if seen[IDTmpDiskTables+"/info"] == nil {
				t.Error("the dump's on-disk temporary tables are not put on it")
			}
			for _, id := range []string{IDTmpDiskTables, IDLongTransaction} {
				if x := seen[id+"/info"]; x != nil && !strings.Contains(x.Title, "mariadb-dump") {
					t.Errorf("%s does not put it on the dump: %s", id, x.Title)
				}
			}
		}},
		{"long-polls-1000-connections", func(t *testing.T, frames []*snapshot.Frame, _ map[string]*snapshot.Finding) {
			most, polls := 0, 0
			for _, f := range frames {
				n := 0
				for _, p := range f.Snapshot.Processlist {
					if p.State == "User sleep" {
						n++
					}
				}
				most, polls = max(most, len(f.Snapshot.Processlist)), max(polls, n)
			}
			if most < 1000 || polls < 40 {
				t.Errorf("the recording lacks its load: %d sessions, %d long polls at most", most, polls)
			}
		}},
		{"replica-catch-up", func(t *testing.T, frames []*snapshot.Frame, seen map[string]*snapshot.Finding) {
			if x := seen[IDReplicationStopped+"/info"]; x == nil || !strings.Contains(x.Title, "(paused)") {
				t.Errorf("the pause is not named: %v", x)
			}
			// The recording holds the pause and the first seconds of the
			// catch-up: the lag past 30 s, falling, with its rate and ETA.
			measured := ""
			for _, f := range frames {
				if x := findingIn(f, IDReplicationLag); x != nil {
					if !strings.Contains(x.Title, "catching up") {
						t.Errorf("frame %d: the catch-up is not named as such: %s", f.Seq, x.Title)
					}
					if measured == "" && strings.Contains(x.Title, "shrinking at") {
						measured = x.Title
					}
				}
			}
			if measured == "" {
				t.Error("the catch-up's rate is never given")
			}
			t.Logf("e.g. %s", measured)
		}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join(healthyDir, c.file+".mytop")
			if _, err := os.Stat(path); err != nil {
				t.Fatalf("%v (scripts/record-healthy.sh makes it)", err)
			}
			frames := replayFile(t, path, DefaultConfig())
			if len(frames) < 20 {
				t.Fatalf("only %d frames", len(frames))
			}
			seen := map[string]*snapshot.Finding{}
			for _, f := range frames {
				for i := range f.Findings {
					x := f.Findings[i]
					k := x.ID + "/" + x.Severity.String()
					if seen[k] == nil {
						seen[k] = &x
						t.Logf("frame %d: %s: %s", f.Seq, k, x.Title)
					}
					if x.Severity > snapshot.Info {
						t.Errorf("frame %d: %s/%s: %s\n%s", f.Seq, x.ID, x.Severity, x.Title,
							strings.Join(x.Evidence, "\n"))
					}
				}
			}
			c.check(t, frames, seen)
		})
	}
}

// replayFile replays a recording through a fresh engine with cfg, as
// `mytop-go replay` does, and returns every frame.
func replayFile(t *testing.T, path string, cfg Config) []*snapshot.Frame {
	t.Helper()
	r, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b := pipeline.NewBuilder("REPLAY", NewEngine(cfg))
	var out []*snapshot.Frame
	for i := range r.Len() {
		s, err := r.Snapshot(i)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b.Add(s))
	}
	return out
}
