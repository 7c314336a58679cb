package analyzers

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The seed incident on a loaded machine: the 400,000-row scan is caught in
// one sample, readers queue on the query cache lock in others, and the
// counters read the plan's rows for every UPDATE.
func TestFullScanUpdateCounted(t *testing.T) {
	scan := messagesPlan("ALL", "", 400000)
	once := at([]int{3}, func(_ int, s *snapshot.Snapshot) {
		s.Processlist = append(s.Processlist, query(203, 0, "Updating", shortScanSQL))
	})
	qcQueue := func(_ int, s *snapshot.Snapshot) {
		for k := range 6 {
			s.Processlist = append(s.Processlist, query(int64(10+k), 0, qcWaitState, "SELECT hits FROM app.messages WHERE id = 7"))
		}
	}
	queues := at([]int{2, 5, 7, 9}, qcQueue)
	writes := counters(map[string]float64{"Com_update": 2, "Handler_read_rnd_next": 2 * 400000})
	fewReads := counters(map[string]float64{"Com_update": 2, "Handler_read_rnd_next": 40000})
	indexedWrites := counters(map[string]float64{"Com_update": 0.2, "Handler_read_rnd_next": 0.2 * 400000})
	other := at([]int{4}, func(_ int, s *snapshot.Snapshot) {
		s.Processlist = append(s.Processlist, query(204, 0, "Updating", scanSQL))
	})
	otherPlan := plan(scanSQL, "ALL", "", 2100000, 2100000)
	runTimelines(t, IDFullScanUpdate, DefaultConfig(), []timelineCase{
		{"counters read its rows for every write, others queue", series(11, scan, once, queues, writes),
			".....CWCWCW"}, // critical while the queue shows, as for a long scan
		{"nobody queues", series(11, scan, once, writes), "..........."},
		{"reads far below the plan's rows per write", series(11, scan, once, queues, fewReads), "..........."},
		{"too few writes to matter", series(11, scan, once, queues, indexedWrites), "..........."},
		{"another scanning write shares the counters", series(11, scan, otherPlan, once, other, queues, writes),
			"..........."},
	})
	f := lastFinding(t, DefaultConfig(), series(11, scan, once, queues, writes), IDFullScanUpdate)
	mustContain(t, f, "counters over the window: 2.0 UPDATE/DELETE/s × ~400,000 rows by the plan", "threads 203")
}
