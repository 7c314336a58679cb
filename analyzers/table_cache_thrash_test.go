package analyzers

import "testing"

func TestTableCacheThrash(t *testing.T) {
	cache := func(hits, misses, opened float64) edit {
		return counters(map[string]float64{tcHits: hits, tcMisses: misses, tcOverflows: misses, tcOpened: opened})
	}
	runTimelines(t, IDTableCacheThrash, DefaultConfig(), []timelineCase{
		{"25,000 opens/s, nothing hits", series(8, cache(300, 25000, 25000)), "...iiWWW"},
		{"a warm busy cache", series(8, cache(50000, 0, 0)), "........"},
		{"a few opens among many hits", series(8, cache(50000, 50, 50)), "........"},
		{"a trickle of misses", series(8, cache(1, 5, 5)), "........"},
		{"a burst of two seconds", series(8, cache(50000, 0, 0), during(3, 5, counter(tcMisses, 1e6-3000, 1000)), during(5, 8, status(tcMisses, "1002000"))), "........"},
		{"old server: Opened_tables only", series(8, counter(tcOpened, 0, 500)), "...iiWWW"},
		{"FLUSH STATUS", series(10, cache(0, 500, 500), flushStatusAt(3, tcHits, tcMisses, tcOpened)), "...iiWWWWW"},
		{"not reported", series(2), "NN"},
	})
	snaps := series(7, cache(300, 25000, 25000), vars("table_open_cache", "10", "table_definition_cache", "400"),
		status("Open_tables", "10", "Open_table_definitions", "310"),
		procs(query(7, 0.1, "Opening tables", "SELECT * FROM t17 WHERE id = 3")))
	f := lastFinding(t, DefaultConfig(), snaps, IDTableCacheThrash)
	mustContain(t, f, "25,000 table opens/s, 1 % hit rate", "Open_tables 10 of table_open_cache 10",
		"Open_table_definitions 310 of table_definition_cache 400", "thread 7", "Raise table_open_cache from 10")
	f = lastFinding(t, DefaultConfig(), series(7, cache(300, 25000, 25000),
		procs(query(8, 0, "Sending data", "SELECT v FROM bench.t17 WHERE id = 1"),
			query(9, 0, "Statistics", "SELECT v FROM bench.t204 WHERE id = 1"))), IDTableCacheThrash)
	mustContain(t, f, "running now: 1 × select v from bench.t17 where id = ?", "running now: 1 × select v from bench.t204")
}
