package busynormal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
)

// The fault family on one busy server, judged live and from its recording
// replayed. It runs only when MYTOP_BUSYNORMAL is set (=live for the default
// pair): on a quiet machine the lock convoy's holder, which connects from
// outside the sysbench namespace, is first named as a workload spike from a
// new client host, so the live pair does not yet pass there, and its 8
// minutes would lengthen every run; the committed recording of the whole
// family replays in the fast tier instead. With MYTOP_BUSYNORMAL=live, two, one on the host and one in the server (a CPU hog
// outside mysqld, a lock convoy), after the baseline's warm-up: about 7
// minutes, of which the faults and their recoveries (2.5 minutes) hold the
// heavy slot and the normal runs beside the other tests at its steady pace;
// the committed recording of the whole family replays in the fast tier
// (replay_test.go). MYTOP_BUSYNORMAL=full runs all ten, with 10 minutes of
// quiet normal after the first (about 29 minutes, all in the heavy slot);
// a comma list of fault names runs those. MYTOP_BUSYNORMAL_SHAPE=chronic
// runs them on a normal with a row always queued on and a busy disk
// (ChronicBusy: hot_rows stands through it, chronic; Shapes names others). MYTOP_BUSYNORMAL_SCHEDULE=normal,fault,recovery
// (durations) changes the schedule; MYTOP_BUSYNORMAL_SAVE=DIR keeps the
// recording and its timeline there; MYTOP_BUSYNORMAL_PTSTALK=DIR runs
// pt-stalk into DIR through the whole run.
func TestIntegrationBusyNormalFaults(t *testing.T) {
	if os.Getenv("MYTOP_BUSYNORMAL") == "" {
		t.Skip("the live fault family runs with MYTOP_BUSYNORMAL=live (about 8 minutes), full or a list of faults")
	}
	t.Parallel()
	sched, faults, whole := plan(t)
	if whole {
		// A recording to commit: nothing else loads the machine through
		// its normal either.
		testdb.Heavy(t)
	}
	shape := DefaultBusy
	if v := os.Getenv("MYTOP_BUSYNORMAL_SHAPE"); v != "" {
		var ok bool
		if shape, ok = Shapes[v]; !ok {
			t.Fatalf("MYTOP_BUSYNORMAL_SHAPE=%s: no such shape", v)
		}
	}
	bed := Start(t, shape)
	path := filepath.Join(t.TempDir(), "busy-normal.mytop")
	mon, err := Watch(bed.Srv.Socket, path)
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("MYTOP_BUSYNORMAL_PTSTALK"); dir != "" {
		capture(t, bed, dir, sched.Span(len(faults)))
	}
	tl := bed.Run(t, sched, faults)
	frames, err := mon.Stop()
	if err != nil {
		t.Errorf("monitor: %v", err)
	}
	t.Logf("sysbench (normal):\n%s", tailLines(bed.SysbenchLog("normal"), 12))
	t.Logf("%d frames over %s", len(frames), tl.Ended.Sub(tl.Began).Round(time.Second))
	if dir := os.Getenv("MYTOP_BUSYNORMAL_SAVE"); dir != "" {
		save(t, dir, path, tl)
	}
	live := Judge(frames, tl)
	t.Logf("live:\n%s", live.Report())
	// Unless the test holds the heavy slot throughout, other packages'
	// heavy tests run beside this normal (it is an application's pace): the
	// host changing under it is news the monitor is right to give. The
	// quiet normal is proved on the committed recording.
	checkJudgement(t, live, judging{known: knownMisses, quietNormal: whole})
	replayed, err := Replay(path)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	sameVerdicts(t, live, Judge(replayed, tl))
}

// capture runs pt-stalk beside the monitor through the whole run, so that
// it is part of the normal the faults are judged against, into dir.
func capture(t *testing.T, bed *Bed, dir string, span time.Duration) {
	bed.Go(func() {
		if err := PtStalk(bed.Context(), bed, dir, time.Until(bed.Began.Add(span+time.Minute))); err != nil {
			t.Errorf("%v", err)
		}
	})
}

// defaultNormal covers the baseline's warm-up (5 min of history before it
// judges anything) and half a minute of judged normal.
const defaultNormal = 5*time.Minute + 30*time.Second

// recovery is longer than an episode's close (every signature gone for
// 30 s), so each fault opens an episode of its own rather than joining the
// last one's.
const recovery = 45 * time.Second

// plan reads the family and schedule the environment asks for; whole says
// the test holds the heavy slot throughout.
func plan(t *testing.T) (sched Schedule, faults []Fault, whole bool) {
	sched = Schedule{Normal: defaultNormal, Fault: 30 * time.Second, Recovery: recovery}
	faults = Named("cpu-hog", "lock-convoy")
	switch v := os.Getenv("MYTOP_BUSYNORMAL"); v {
	case "", "live":
	case "full":
		sched.Normal, sched.Quiet, faults, whole = defaultNormal+30*time.Second, 10*time.Minute, Family(), true
	default:
		faults, whole = Named(strings.Split(v, ",")...), true
	}
	if v := os.Getenv("MYTOP_BUSYNORMAL_SCHEDULE"); v != "" {
		var err error
		parts := strings.Split(v, ",")
		for i, d := range []*time.Duration{&sched.Normal, &sched.Fault, &sched.Recovery} {
			if i < len(parts) {
				if *d, err = time.ParseDuration(parts[i]); err != nil {
					t.Fatalf("MYTOP_BUSYNORMAL_SCHEDULE: %v", err)
				}
			}
		}
	}
	return sched, faults, whole
}

// save writes into dir the recording thinned to a sample every 2 s (Thin:
// the 1-s recording of the full run is 7 MB) and its timeline.
func save(t *testing.T, dir, path string, tl *Timeline) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, filepath.Base(path))
	if err := Thin(path, name, 2*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := tl.Save(strings.TrimSuffix(name, ".mytop") + ".json"); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(name)
	if st != nil {
		t.Logf("saved %s (%d KB) and its timeline", name, st.Size()>>10)
	}
}

func tailLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
