package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Sorts that do not fit sort_buffer_size merge through temporary files
// (SORT-01): merge passes above 10 % of sorts is MT's warning. Raising
// sort_buffer_size blindly is a trap (PVA notes > 4M).
const sortMerge = "Sort_merge_passes"

// sortStates are processlist states of statements sorting.
var sortStates = []string{"Creating sort index", "Sorting result", "Sorting for order", "Sorting for group"}

// IDSortMergePasses names the findings of sort_merge_passes: a contract (the
// README's findings table), stable, never reused.
const IDSortMergePasses = "sort_merge_passes"

// SortMergeConfig holds sort_merge_passes' thresholds, each with its source and
// the trap it avoids.
type SortMergeConfig struct {
	// SortMergeShareWarn: merge passes as % of sorts (SORT-01, MT > 10 %).
	// SortMergeMinPerSec keeps a rare merge pass from counting (UNKNOWN).
	// Trap: a share over a near-zero denominator.
	SortMergeShareWarn float64
	SortMergeMinPerSec float64
}

func (c *SortMergeConfig) defaults() {
	*c = SortMergeConfig{
		SortMergeShareWarn: 10,
		SortMergeMinPerSec: 1,
	}
}

// sortMergePassesRule is sort_merge_passes in the rules table (rule.go).
// SORT-01 (MT judges since start-up). MT reads merge passes since start-up,
// no duration; the same 30 s to raise and 10 s to clear as tmp_disk_tables
// (its rule value says why). Trap: one large sort's merge passes in the
// seconds it runs.
var sortMergePassesRule = rule{id: IDSortMergePasses, check: checkSortMergePasses, persist: persistFor(30*time.Second, 10*time.Second), held: true}

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
	merging := func(r *snapshot.StatementRate) float64 { return r.SortMergePerS }
	ev = append(ev, digestCauseLines(w, c, "merge passes", merging)...)
	sev := snapshot.Warning
	if r := w.routine(); r.any() && routineSorts(w, sorting, merging) {
		// Only routine work was seen sorting: say so, at info.
		sev = snapshot.Info
		ev = append(ev, "the sorting statements seen are routine work's: "+r.names(maxThreadLines))
	}
	return raise(sev, fmt.Sprintf("%s sort merge passes/s (%.0f %% of sorts)", fmtRate(merges), share),
		ev, sortAdvice(w, sorting, merging), ids(sorting, maxThreadIDs))
}

// sortAdvice follows the statement with the most merge passes (digests),
// else the longest one seen sorting.
func sortAdvice(w *window, sorting []*snapshot.Process, merging func(*snapshot.StatementRate) float64) string {
	const tail = ", or sort fewer/narrower rows; raise sort_buffer_size only for the sessions that need it, not globally."
	if top := topDigest(w, merging); top != nil {
		return fmt.Sprintf("Let %s (%s merge passes/s) read rows in order from an index on its ORDER BY columns",
			truncateText(top.Fingerprint, 160), fmtRate(top.SortMergePerS)) + tail
	}
	for _, p := range sorting {
		if p.Info != "" {
			return fmt.Sprintf("Let %s (thread %d) read rows in order from an index on its ORDER BY columns",
				statement(p.Info), p.ID) + tail
		}
	}
	return "Let the sorting statements read rows in order from an index on the ORDER BY columns (performance_schema's " +
		"SUM_SORT_MERGE_PASSES names them when it is on)" + tail
}

// routineSorts: the digests' merge passes, or else the threads seen sorting,
// are all routine work's.
func routineSorts(w *window, sorting []*snapshot.Process, merging func(*snapshot.StatementRate) float64) bool {
	if rates := w.digestRates(); len(rates) > 0 {
		var all, mine float64
		for i := range rates {
			all += merging(&rates[i])
			if routineDigest(w, &rates[i]) {
				mine += merging(&rates[i])
			}
		}
		return all > 0 && mine >= all
	}
	return len(sorting) > 0 && len(appProcesses(w, sorting)) == 0
}
