package analyzers

import "testing"

func TestThreadCacheMiss(t *testing.T) {
	conns := func(connections, created float64) edit {
		return counters(map[string]float64{"Connections": connections, "Threads_created": created})
	}
	runTimelines(t, IDThreadCacheMiss, DefaultConfig(), []timelineCase{
		{"every connection creates a thread", series(8, conns(300, 300)), "...iiWWW"},
		{"the cache serves them", series(8, conns(300, 2)), "........"},
		{"a reconnecting agent", series(8, conns(1, 1)), "........"},
		{"thread pool", series(3, conns(300, 300), vars("thread_handling", "pool-of-threads")), "NNN"},
		{"not reported", series(2), "NN"},
	})
	snaps := series(7, conns(300, 300), vars("thread_cache_size", "0"),
		status("Max_used_connections", "40", "Threads_connected", "12", "Threads_cached", "0"))
	f := lastFinding(t, DefaultConfig(), snaps, IDThreadCacheMiss)
	mustContain(t, f, "300 new threads/s for 300 connections/s (100 %)", "thread_cache_size=0",
		"Max_used_connections 40", "SET GLOBAL thread_cache_size = 256")
	snaps = series(7, conns(20, 20), vars("thread_cache_size", "0"), status("Max_used_connections", "12"))
	f = lastFinding(t, DefaultConfig(), snaps, IDThreadCacheMiss)
	mustContain(t, f, "SET GLOBAL thread_cache_size = 20")
}
