package analyzers

import (
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// spillConfig judges tmp_disk_tables and sort_merge_passes with the engine's
// default persistence, so their tables read frame by frame;
// TestSpillRulesPersistence checks the shipped 30 s.
func spillConfig() Config { return ruleLogic(IDTmpDiskTables, IDSortMergePasses) }

func TestSpillRulesPersistence(t *testing.T) {
	tmp := counters(map[string]float64{tmpTables: 60, tmpDisk: 14})
	// until grows the counters for the first k seconds, then holds them.
	until := func(k int) edit {
		return func(i int, s *snapshot.Snapshot) {
			tmp(min(i, k), s)
		}
	}
	sorts := counters(map[string]float64{"Sort_scan": 30, "Sort_range": 20, sortMerge: 10})
	// Info from the third second of the hold, the warning once it held 30 s.
	raised := "..." + strings.Repeat("i", 27) + strings.Repeat("W", 10)
	runTimelines(t, IDTmpDiskTables, DefaultConfig(), []timelineCase{
		{"14/s on disk for 40 s", series(40, tmp), raised},
		{"a 5-s burst is info while it lasts", series(40, until(5)), "...iiii" + strings.Repeat(".", 33)},
		{"clears 10 s after it stops", series(52, until(40)), "..." + strings.Repeat("i", 27) + strings.Repeat("W", 20) + ".."},
	})
	runTimelines(t, IDSortMergePasses, DefaultConfig(), []timelineCase{
		{"20 % of sorts merge for 40 s", series(40, sorts), raised},
	})
}
