package analyzers

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestTmpDiskTables(t *testing.T) {
	tmp := func(all, disk float64) edit {
		return counters(map[string]float64{tmpTables: all, tmpDisk: disk})
	}
	runTimelines(t, IDTmpDiskTables, spillConfig(), []timelineCase{
		{"14 % on disk at 3/s is no per-second alarm", series(5, tmp(22, 3)), "....."},
		{"more than 10/s on disk", series(5, tmp(60, 14)), "...WW"},
		{"the monitor's own footprint on an idle server", series(6, tmp(1, 0)), "......"},
		{"the monitor's own information_schema reads during an incident", series(6, tmp(2, 1), selfTmpDisk(1)), "......"},
		{"disk tables beyond the monitor's own", series(6, tmp(60, 14), selfTmpDisk(1)), "...WWW"},
		{"10/s beyond the monitor's own is not above 10/s", series(6, tmp(60, 11), selfTmpDisk(1)), "......"},
		{"many and mostly on disk is critical", series(4, tmp(40, 30)), "...C"},
		{"high rate at a low share", series(4, tmp(1000, 20)), "...W"},
		{"a few in memory", series(4, tmp(20, 0)), "...."},
		{"one disk table now and then is noise", series(4, tmp(2, 0.5)), "...."},
		{"zero denominator", series(4, tmp(0, 0)), "...."},
		{"restart", series(8, tmp(20, 2), restartAt(2)), "........"},
		{"not reported", series(2), "NN"},
	})
	snaps := series(4, tmp(60, 14), counter("Created_tmp_files", 0, 1), vars("tmp_table_size", "16777216",
		"max_heap_table_size", "16777216"), procs(query(9, 3, "Copying to tmp table on disk",
		"SELECT a, COUNT(*) FROM t GROUP BY a")))
	f := lastFinding(t, spillConfig(), snaps, IDTmpDiskTables)
	mustContain(t, f, "14 temporary tables/s on disk (24 % of all)", "Created_tmp_disk_tables 14/s", "not counting this monitor's own 1.0/s, 0.0/s of them on disk, assumed per sample",
		"tmp_table_size=16M, max_heap_table_size=16M", "thread 9", "group by",
		"Index the GROUP BY/ORDER BY columns of select a, count(*) from t group by a (thread 9)")
	if len(f.Threads) != 1 || f.Threads[0] != 9 {
		t.Errorf("threads %v", f.Threads)
	}
}

// selfTmpDisk marks every snapshot as having made n on-disk temporary tables
// of the monitor's own.
func selfTmpDisk(n int) edit {
	return func(_ int, s *snapshot.Snapshot) { s.SelfTmpDiskTables = n }
}
