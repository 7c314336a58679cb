package analyzers

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// bpLoad makes read requests and disk reads grow at the given rates.
func bpLoad(requests, reads float64) edit {
	return counters(map[string]float64{bpRequests: requests, bpReads: reads})
}

// bpFlip alternates the miss rate between two values every second.
func bpFlip(requests, readsEven, readsOdd float64) edit {
	return func(i int, s *snapshot.Snapshot) {
		var sum float64
		for k := 1; k <= i; k++ {
			sum += map[bool]float64{true: readsEven, false: readsOdd}[k%2 == 0]
		}
		s.Status[bpRequests] = fmt.Sprint(requests * float64(i))
		s.Status[bpReads] = fmt.Sprint(sum)
	}
}

// flushStatusAt drops every counter to near zero at snapshot k, as FLUSH STATUS does.
func flushStatusAt(k int, names ...string) edit {
	return func(i int, s *snapshot.Snapshot) {
		if i >= k {
			for _, n := range names {
				var v float64
				fmt.Sscan(s.Status[n], &v)
				s.Status[n] = fmt.Sprint(v - 1e6)
			}
		}
	}
}

func TestBufferPoolMiss(t *testing.T) {
	noInnoDB := func(_ int, s *snapshot.Snapshot) { delete(s.Status, bpReads); delete(s.Status, bpRequests) }
	runTimelines(t, IDBufferPoolMiss, DefaultConfig(), []timelineCase{
		{"hit 85 % warns after 3 intervals", series(6, bpLoad(10000, 1500)), "...WWW"},
		{"hit 70 % is critical", series(5, bpLoad(10000, 3000)), "...CC"},
		{"hit 99 % is healthy", series(5, bpLoad(10000, 100)), "....."},
		{"too few requests to judge", series(5, bpLoad(50, 40)), "....."},
		{"zero denominator", series(5, bpLoad(0, 0)), "....."},
		{"more reads than requests is unreliable", series(5, bpLoad(100, 500)), "....."},
		{"restart: quiet while starting, finding clears", series(12, bpLoad(10000, 1500), restartAt(5)),
			"...WWWWWW..."},
		{"after a restart a cold pool is at most a warning", series(20, bpLoad(10000, 3000), restartAt(5)),
			"...CCCCCC...WWWWWWWW"},
		{"FLUSH STATUS skips one interval only", series(10, bpLoad(10000, 1500), flushStatusAt(5, bpRequests, bpReads)),
			"...WWWWWWW"},
		{"flapping around 90 % never raises", series(12, bpFlip(10000, 1100, 900)), "............"},
		{"no InnoDB counters", series(3, noInnoDB), "NNN"},
	})
}

func TestBufferPoolMissEvidence(t *testing.T) {
	snaps := series(5, bpLoad(10000, 1500), status("Innodb_buffer_pool_pages_free", "12",
		"Innodb_buffer_pool_pages_total", "8192"), vars("innodb_buffer_pool_size", "134217728"),
		procs(query(44, 12, "Sending data", "SELECT * FROM orders WHERE note LIKE '%x%'")))
	f := lastFinding(t, DefaultConfig(), snaps, IDBufferPoolMiss)
	mustContain(t, f, "buffer pool hit 85.0 %: 1,500 reads/s go to disk",
		"Innodb_buffer_pool_reads 1,500/s (1,500 in 1.0 s)", "Innodb_buffer_pool_read_requests 10,000/s",
		"free pages 12 of 8,192", "innodb_buffer_pool_size=128M", "running: thread 44", "(now 128M)")
}

func TestBufferPoolMissNamesShortReaders(t *testing.T) {
	pk := "SELECT id, pad FROM shop.big WHERE id IN (7, 9, 12)"
	snaps := series(5, bpLoad(10000, 3000), procs(query(5, 0, "Sending data", pk), query(6, 0, "Sending data", pk),
		query(7, 0, "Sending data", "SELECT 1 FROM shop.big WHERE id = 3"), sleeping(8, "app")))
	f := lastFinding(t, DefaultConfig(), snaps, IDBufferPoolMiss)
	mustContain(t, f, "running now: 2 × select id, pad from shop.big where id in (?+)",
		"running now: 1 × select ? from shop.big where id = ?")
	for _, e := range f.Evidence {
		if strings.HasPrefix(e, "running: ") {
			t.Errorf("short reads named as long-running: %s", e)
		}
	}
}
