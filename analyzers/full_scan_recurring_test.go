package analyzers

import (
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

const shortScanSQL = "UPDATE app.messages SET flag = flag + 1 WHERE body LIKE '%zz1%'"

// shortScans is the root-cause proofs's reproduction: clients each looping a 0.3–2 s
// full-scan UPDATE, so every sample shows a different mix of young runs.
func shortScans(clients int) edit {
	return func(i int, s *snapshot.Snapshot) {
		for c := 0; c < clients; c++ {
			// Each client starts a new run every sample (Time restarts).
			ms := float64((i*300+c*500)%900) / 1000
			s.Processlist = append(s.Processlist, query(int64(100+c), ms, "Updating", shortScanSQL))
		}
	}
}

func messagesPlan(typ, key string, rows int64) edit {
	return func(_ int, s *snapshot.Snapshot) {
		if s.Explains == nil {
			s.Explains = map[string]*snapshot.Explain{}
		}
		fp := snapshot.Fingerprint(shortScanSQL)
		s.Explains[fp] = &snapshot.Explain{Fingerprint: fp, Method: "EXPLAIN",
			Rows:      []snapshot.ExplainRow{{ID: "1", SelectType: "SIMPLE", Table: "messages", Type: typ, Key: key, Rows: rows}},
			TableRows: map[string]int64{"app.messages": rows}}
	}
}

func TestFullScanUpdateShortRepeated(t *testing.T) {
	scan := messagesPlan("ALL", "", 400000)
	runTimelines(t, IDFullScanUpdate, DefaultConfig(), []timelineCase{
		{"three clients looping a short full scan", series(6, scan, shortScans(3)), "..WWWW"},
		{"with an index it is fine", series(6, messagesPlan("range", "body", 40), shortScans(3)), "......"},
		{"small table", series(6, messagesPlan("ALL", "", 2000), shortScans(3)), "......"},
		{"no plan yet: not judged", series(6, shortScans(3)), "......"},
		{"seen once is chance", series(6, scan, during(2, 3, shortScans(1))), "......"},
		{"stops: clears", series(12, scan, during(0, 5, shortScans(3))), "..WWWWWWW..."},
		{"critical while others queue on locks", series(4, scan, shortScans(2),
			procs(query(9, 1, "Waiting for table level lock", "SELECT * FROM app.messages WHERE id = 1"))), ".CCC"},
	})
	snaps := series(10, scan, shortScans(3), counters(map[string]float64{"Handler_read_rnd_next": 1.2e6,
		"Handler_read_next": 10, "Handler_update": 30}))
	f := lastFinding(t, DefaultConfig(), snaps, IDFullScanUpdate)
	mustContain(t, f, "UPDATE app.messages scans the whole table (~400,000 rows) again and again: running in 10 of 10 samples, 3.0 at a time",
		"plan (EXPLAIN): table messages type ALL, key NULL, ~400,000 rows",
		"3.0 thread-seconds per second", "rows/s read by it", "app.messages needs an index on (body)",
		"Handler_read_rnd_next 1,200,000/s", "rows read per row written", "an index on app.messages(body)",
		"threads 100, 101, 102")
	if len(f.Threads) != 3 || len(f.Tables) != 1 || f.Tables[0] != "app.messages" {
		t.Errorf("threads %v tables %v", f.Threads, f.Tables)
	}
}

// TestFullScanUpdateShortBlocking is the seed incident's shape: one short
// scan of a MyISAM table caught in one sample of five (a new connection each
// run), its busy share under FullScanRecurBusy. With readers queued behind it
// each time it is raised; the same scan harming no one, or queued only
// behind its own other runs, is not.
func TestFullScanUpdateShortBlocking(t *testing.T) {
	scan := messagesPlan("ALL", "", 400000)
	caught := []int{0, 5, 10, 15}
	run := func(i int, s *snapshot.Snapshot) {
		s.Processlist = append(s.Processlist, query(int64(200+i), 0, "Updating", shortScanSQL))
	}
	readers := func(_ int, s *snapshot.Snapshot) {
		for k := range 4 {
			s.Processlist = append(s.Processlist, query(int64(10+k), 0, "Waiting for table level lock",
				"SELECT hits FROM app.messages WHERE id = 7"))
		}
	}
	ownRuns := func(i int, s *snapshot.Snapshot) {
		s.Processlist = append(s.Processlist, query(int64(300+i), 0, "Waiting for table level lock",
			strings.Replace(shortScanSQL, "zz1", "zz2", 1)))
	}
	runTimelines(t, IDFullScanUpdate, DefaultConfig(), []timelineCase{
		// Raised at its second sighting with a queue, critical while the
		// queue shows.
		{"readers queue behind it each time", series(16, scan, at(caught, run), at(caught, readers)),
			".....CWWWWCWWWWC"},
		{"the same scan harming no one", series(16, scan, at(caught, run)), "................"},
		{"readers queued while the scan is not running", series(16, scan, at([]int{0, 5}, run),
			at([]int{10, 15}, readers)), "................"},
	})
	// Two runs a sample make a busy share of 0.5: judged on the queue alone.
	strict := DefaultConfig()
	strict.FullScanRecurBusy = 0.9
	runTimelines(t, IDFullScanUpdate, strict, []timelineCase{
		{"queued only behind its own runs", series(16, scan, at(caught, run), at(caught, ownRuns)),
			"................"},
		{"readers behind both runs", series(16, scan, at(caught, run), at(caught, ownRuns), at(caught, readers)),
			".....CWWWWCWWWWC"},
	})
	snaps := series(11, scan, at(caught, run), at(caught, readers))
	f := lastFinding(t, DefaultConfig(), snaps, IDFullScanUpdate)
	mustContain(t, f, "running in 3 of 11 samples, 0.3 at a time",
		"in 3 of those samples other threads queued for a table-level or query cache lock meanwhile",
		"4 threads wait on locks of its tables meanwhile", "threads 210")
}

// The bundled example's long UPDATE stays critical with the recurring path
// beside it: a long run is judged on its own Time first.
func TestFullScanUpdateLongRunKeepsItsVerdict(t *testing.T) {
	snaps := series(4, plan(scanSQL, "ALL", "", 2100000, 2100000), scanning(5121, 60, scanSQL, 0),
		messagesPlan("ALL", "", 400000), shortScans(2))
	f := lastFinding(t, DefaultConfig(), snaps, IDFullScanUpdate)
	if f.Severity != snapshot.Critical || !strings.HasPrefix(f.Title, "UPDATE b scans the whole table, running") {
		t.Errorf("got %s %q", f.Severity, f.Title)
	}
	mustContain(t, f, "app.messages needs an index on (body)")
}
