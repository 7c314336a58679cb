package analyzers

import (
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// qcWork grows the query cache's counters at the given rates per second.
func qcWork(hits, inserts, prunes float64) edit {
	return counters(map[string]float64{qcHits: hits, qcInserts: inserts, qcPrunes: prunes, "Com_select": hits + inserts})
}

// marks is n quiet frames followed by m frames of mark c.
func marks(n int, c string, m int) string { return strings.Repeat(".", n) + strings.Repeat(c, m) }

func TestQueryCacheInefficient(t *testing.T) {
	qcOff := vars("have_query_cache", "YES", "query_cache_type", "OFF", "query_cache_size", "0")
	runTimelines(t, IDQueryCacheInefficient, DefaultConfig(), []timelineCase{
		{"more inserts than hits is info once 30 s are seen", series(40, qcOn, qcWork(2, 10, 0)), marks(30, "i", 10)},
		{"and churning prunes make it a warning", series(40, qcOn, qcWork(2, 10, 5)), marks(30, "W", 10)},
		{"a cache that pays is quiet", series(40, qcOn, qcWork(50, 10, 0)), marks(40, "", 0)},
		{"a cache that pays but prunes is info", series(40, qcOn, qcWork(50, 10, 1)), marks(30, "i", 10)},
		{"too few lookups to judge", series(40, qcOn, qcWork(0.5, 1, 0)), marks(40, "", 0)},
		{"FLUSH STATUS starts the minute again", series(60, qcOn, qcWork(2, 10, 0),
			flushStatusAt(20, qcHits, qcInserts, qcPrunes, "Com_select")), marks(50, "i", 10)},
		{"never on a cache that is off", series(5, qcOff, qcWork(2, 10, 5)), "NNNNN"},
		{"never where the cache was removed", series(3, func(_ int, s *snapshot.Snapshot) { delete(s.Variables, "query_cache_type") }),
			"NNN"},
	})
	f := lastFinding(t, DefaultConfig(), series(61, qcOn, qcWork(2, 10, 5), vars("query_cache_limit", "1048576"),
		status("Qcache_free_memory", "1024")), IDQueryCacheInefficient)
	mustContain(t, f, "query cache does not pay: 600 inserts for 120 hits and 300 low-memory prunes in 1m0s",
		"over 1m0s: Qcache_hits 2.0/s, Qcache_inserts 10/s, Qcache_lowmem_prunes 5.0/s",
		"hit 17 % of SELECTs", "query_cache_type=ON, query_cache_size=128M", "query_cache_limit=1M",
		"Growing it would not help")
}
