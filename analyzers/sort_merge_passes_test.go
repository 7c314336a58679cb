package analyzers

import "testing"

func TestSortMergePasses(t *testing.T) {
	sorts := func(scan, rng, merges float64) edit {
		return counters(map[string]float64{"Sort_scan": scan, "Sort_range": rng, sortMerge: merges})
	}
	runTimelines(t, IDSortMergePasses, spillConfig(), []timelineCase{
		{"20 % of sorts merge", series(5, sorts(30, 20, 10)), "...WW"},
		{"5 % is fine", series(4, sorts(80, 20, 5)), "...."},
		{"a rare merge pass", series(4, sorts(2, 0, 0.5)), "...."},
		{"no sorts at all", series(4, sorts(0, 0, 0)), "...."},
		{"FLUSH STATUS costs one second, not the hold", series(8, sorts(30, 20, 10), flushStatusAt(3, "Sort_scan", "Sort_range", sortMerge)),
			"....WWWW"},
		{"not reported", series(2), "NN"},
	})
	snaps := series(4, sorts(30, 20, 10), vars("sort_buffer_size", "262144"),
		procs(query(4, 2, "Creating sort index", "SELECT * FROM t ORDER BY b")))
	f := lastFinding(t, spillConfig(), snaps, IDSortMergePasses)
	mustContain(t, f, "10 sort merge passes/s (20 % of sorts)", "Sort_scan 30/s", "sort_buffer_size=256K", "thread 4",
		"Let select * from t order by b (thread 4) read rows in order from an index on its ORDER BY columns")
	// Only a pt-archiver session seen sorting: its own, at info.
	arch := query(4, 2, "Creating sort index", "SELECT /*!40001 SQL_NO_CACHE */ `id`,`k` FROM `shop`.`items` "+
		"FORCE INDEX(`PRIMARY`) WHERE (id < 500) ORDER BY `id` LIMIT 100")
	runTimelines(t, IDSortMergePasses, spillConfig(), []timelineCase{
		{"routine work's sort", series(5, sorts(30, 20, 10), procs(arch)), "...ii"},
	})
	f = lastFinding(t, spillConfig(), series(5, sorts(30, 20, 10), procs(arch)), IDSortMergePasses)
	mustContain(t, f, "the sorting statements seen are routine work's: pt-archiver (session 4, reading shop.items in chunks)")
}
