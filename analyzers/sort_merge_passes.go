package analyzers

import (
	"fmt"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Sorts that do not fit sort_buffer_size merge through temporary files
// (SORT-01): merge passes above 10 % of sorts is MT's warning. Raising
// sort_buffer_size blindly is a trap (PVA notes > 4M).
const sortMerge = "Sort_merge_passes"

// sortStates are processlist states of statements sorting.
var sortStates = []string{"Creating sort index", "Sorting result", "Sorting for order", "Sorting for group"}

func checkSortMergePasses(w *window, c *Config) verdict {
	if r := w.statusNA(sortMerge, "Sort_scan", "Sort_range"); r != "" {
		return notApplicable(r)
	}
	if w.warmingUp(c) != "" {
		return quiet()
	}
	merges, ok1 := w.rate(sortMerge)
	scan, ok2 := w.rate("Sort_scan")
	rng, ok3 := w.rate("Sort_range")
	sorts := scan + rng
	if !ok1 || !ok2 || !ok3 || merges < c.SortMergeMinPerSec || sorts <= 0 {
		return quiet()
	}
	share := 100 * merges / sorts
	if share <= c.SortMergeShareWarn {
		return quiet()
	}
	ev := []string{fmt.Sprintf("merge passes are %.0f %% of sorts (Sort_scan + Sort_range) this interval", share)}
	ev = append(ev, w.counterLines(sortMerge, "Sort_scan", "Sort_range", "Sort_rows")...)
	if b, ok := w.snap.VarFloat("sort_buffer_size"); ok {
		ev = append(ev, "sort_buffer_size="+fmtBytes(b))
	}
	sorting := w.processes().inStates(sortStates...)
	ev = append(ev, threadLines(sorting)...)
	ev = append(ev, digestCauseLines(w, c, "merge passes", func(r *snapshot.StatementRate) float64 { return r.SortMergePerS })...)
	return raise(snapshot.Warning, fmt.Sprintf("%s sort merge passes/s (%.0f %% of sorts)", fmtRate(merges), share),
		ev, "Let the sorting statements read rows in order from an index on the ORDER BY columns, or sort "+
			"fewer/narrower rows; raise sort_buffer_size only for the sessions that need it, not globally.",
		ids(sorting, maxThreadIDs))
}
