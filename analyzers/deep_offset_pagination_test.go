package analyzers

import (
	"testing"
)

func TestDeepOffsetPagination(t *testing.T) {
	deep := procs(query(31, 0.8, "Sending data", "SELECT id, title FROM news ORDER BY id LIMIT 20 OFFSET 60000"))
	runTimelines(t, IDDeepOffsetPagination, DefaultConfig(), []timelineCase{
		{"LIMIT n OFFSET m", series(5, deep), "..WWW"},
		{"LIMIT m, n (MySQL 8 state name)", series(3, procs(query(31, 1, "executing",
			"SELECT * FROM news ORDER BY id LIMIT 60000, 20"))), "..W"},
		{"shallow pages are fine", series(4, procs(query(31, 1, "Sending data",
			"SELECT * FROM news ORDER BY id LIMIT 20 OFFSET 40"))), "...."},
		{"an UPDATE with LIMIT is not pagination", series(4, procs(query(31, 1, "Updating",
			"UPDATE news SET x = 1 LIMIT 50000, 10"))), "...."},
		{"pages caught now and then make a pattern", series(8, at([]int{1, 4, 7}, deep)), ".......W"},
		{"clears once the sightings age out", series(24, during(0, 4, deep)), "..WWWWWWWWWWWWWWWWWW...."},
		{"a page every 8 s is not a pattern", series(20, at([]int{1, 9, 17}, deep)), "...................."},
	})
}

func TestDeepOffsetPaginationEvidence(t *testing.T) {
	p := query(31, 0.8, "Sending data", "SELECT id, title FROM news ORDER BY id LIMIT 20 OFFSET 60000")
	p.ExaminedRows = 60020
	snaps := series(3, procs(p, query(32, 0.1, "Sending data", "SELECT * FROM news LIMIT 20000, 20")),
		counter("Handler_read_next", 0, 120000))
	f := lastFinding(t, DefaultConfig(), snaps, IDDeepOffsetPagination)
	mustContain(t, f, "SELECTs page with OFFSET up to 60,000", "running in 3 of the last 3 samples", "OFFSET 60,000: thread 31",
		"60,020 rows examined", "OFFSET 20,000: thread 32", "Handler_read_next 120,000/s", "key-set")
	if len(f.Threads) != 2 {
		t.Errorf("threads %v", f.Threads)
	}
}
