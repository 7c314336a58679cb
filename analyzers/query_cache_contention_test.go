package analyzers

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

var qcOn = vars("have_query_cache", "YES", "query_cache_type", "ON", "query_cache_size", "134217728")

// qcPileUp puts n SELECTs in the query cache wait behind one long UPDATE.
func qcPileUp(n int) edit {
	return func(i int, s *snapshot.Snapshot) {
		s.Processlist = append(s.Processlist, query(100, 40, "Sending data", "UPDATE b SET c = 1 WHERE d = 7"))
		for k := range n {
			s.Processlist = append(s.Processlist,
				query(int64(200+k), float64(k), qcWaitState, fmt.Sprintf("SELECT * FROM items WHERE id = %d", k)))
		}
	}
}

func TestQueryCacheContention(t *testing.T) {
	noQCVar := func(_ int, s *snapshot.Snapshot) { delete(s.Variables, "query_cache_type") }
	dropVars := func(_ int, s *snapshot.Snapshot) { s.Variables = nil }
	every2nd := func(i int, s *snapshot.Snapshot) {
		if i%2 == 0 {
			qcPileUp(3)(i, s)
		}
	}
	runTimelines(t, IDQueryCacheContention, DefaultConfig(), []timelineCase{
		{"onset after 5 frames, clear after 5", series(16, qcOn, during(2, 12, qcPileUp(3))),
			"......WWWWWWWWWW"},
		{"waiters caught every other sample: a convoy", series(12, qcOn, every2nd), "....WWWWWWWW"},
		{"a lone waiter now and then among busy threads", series(16, qcOn, pileOf(6, "Sending data"),
			at([]int{0, 5, 10, 15}, procs(query(99, 0, qcWaitState, "SELECT 1 FROM t")))), "................"},
		{"convoy ends: clears once the sightings age out", series(30, qcOn, during(0, 6, every2nd)),
			"....WWWWWWWWWWWWWWWWWWW......."},
		{"normal query cache states are not contention", series(8, qcOn,
			procs(query(5, 0, "checking query cache for query", "SELECT 1 FROM t"),
				query(6, 0, "storing result in query cache", "SELECT 2 FROM t"))), "........"},
		{"critical when waiters dominate a pile-up", series(7, qcOn, qcPileUp(30),
			status("Threads_running", "40")), "....CCC"},
		{"MySQL 8: no query cache at all", series(4, noQCVar, qcPileUp(3)), "NNNN"},
		{"built without it", series(3, qcOn, vars("have_query_cache", "NO")), "NNN"},
		{"switched off by type", series(3, qcOn, vars("query_cache_type", "OFF")), "NNN"},
		{"switched off by size (the query-cache write-up baseline)", series(3, qcOn, vars("query_cache_size", "0")), "NNN"},
		{"status-only capture with Qcache counters", series(6, dropVars, status("Qcache_hits", "5",
			"Qcache_total_blocks", "3"), qcPileUp(2)), "....WW"},
		{"status-only capture of a cache with no memory", series(2, dropVars, status("Qcache_hits", "0",
			"Qcache_total_blocks", "0")), "NN"},
		{"status-only capture without Qcache counters", series(2, dropVars), "NN"},
	})
}

func TestQueryCacheContentionEvidence(t *testing.T) {
	snaps := series(6, qcOn, qcPileUp(4), counters(map[string]float64{
		"Qcache_hits": 180, "Qcache_inserts": 1020, "Qcache_lowmem_prunes": 3, "Com_update": 41,
		"Com_select": 900, "Com_insert": 0, "Com_delete": 0, "Com_replace": 0,
	}), func(i int, s *snapshot.Snapshot) {
		// 16 CPUs, 70 % idle, 6 runnable: serialised, not short of hardware.
		s.Host = &snapshot.Host{NumCPU: 16, ProcsRunning: 6,
			CPU: snapshot.CPUTimes{User: float64(i) * 4.5, System: float64(i) * 0.3, Idle: float64(i) * 11.2}}
	})
	f := lastFinding(t, DefaultConfig(), snaps, IDQueryCacheContention)
	mustContain(t, f, "4 threads wait for the query cache lock", "1 writes run meanwhile",
		"oldest 3.0 s", "writing: thread 100 app@10.0.0.12 db shop, 40 s",
		"query_cache_type=ON, query_cache_size=128M", "Qcache_hits 180", "writes 41",
		"run queue 6 on 16 CPUs", "CPU idle 70 %", "serialised", "query_cache_type=0", "query_cache_size=0")
	if len(f.Threads) != 5 || f.Threads[len(f.Threads)-1] != 100 {
		t.Errorf("threads %v, want 4 waiters and the writer 100", f.Threads)
	}
	if f.Severity != snapshot.Warning || !f.Since.Equal(t0) {
		t.Errorf("severity %v since %v", f.Severity, f.Since)
	}
}

func TestQueryCacheConvoyNamesThreadsSeenEarlier(t *testing.T) {
	odd := func(i int, s *snapshot.Snapshot) {
		if i%2 == 1 {
			qcPileUp(2)(i, s)
		}
	}
	f := lastFinding(t, DefaultConfig(), series(9, qcOn, odd), IDQueryCacheContention)
	mustContain(t, f, "threads keep queueing for the query cache lock: 67 % of working threads seen waiting over 9 samples",
		`8 of 12 working-thread sightings (67 %) were in "Waiting for query cache lock"`,
		"waiting: 2 × select * from items where id = ?")
	if strings.Contains(strings.Join(f.Evidence, "\n"), "now, oldest") {
		t.Errorf("no thread waits in the last frame: %v", f.Evidence)
	}
	if len(f.Threads) != 2 || f.Threads[0] != 200 || f.Threads[1] != 201 {
		t.Errorf("threads %v, want the waiters seen earlier", f.Threads)
	}
}
