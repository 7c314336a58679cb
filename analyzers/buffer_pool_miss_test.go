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
		// The routine-work review: a quiet server's few misses are no incident, whatever the ratio.
		{"60 % hit at 80 reads/s is below the floor", series(5, bpLoad(200, 80)), "....."},
		{"hit 85 % at 150 reads/s is over it", series(5, bpLoad(1000, 150)), "...WW"},
	})
}

// A pool that is not full, or loading its saved pages, is warming: the
// misses stay at info (the routine-work review: a restart with a cold pool is not a
// misconfigured one).
func TestBufferPoolMissWarmingPool(t *testing.T) {
	pages := func(free, total int) edit {
		return status("Innodb_buffer_pool_pages_free", fmt.Sprint(free), "Innodb_buffer_pool_pages_total", fmt.Sprint(total))
	}
	filling := func(i int, s *snapshot.Snapshot) { pages(60000-2000*i, 65536)(i, s) }
	runTimelines(t, IDBufferPoolMiss, DefaultConfig(), []timelineCase{
		{"cold pool, 90 % free, filling under reads", series(6, bpLoad(10000, 3000), filling), "...iii"},
		{"a full pool keeps innodb_lru_scan_depth pages free", series(5, bpLoad(10000, 3000), pages(1024, 65536)), "...CC"},
		{"a small full pool: few free pages are not filling", series(5, bpLoad(10000, 3000), pages(900, 4096)), "...CC"},
		{"saved pool loading", series(5, bpLoad(10000, 3000), pages(10, 8192),
			status("Innodb_buffer_pool_load_status", "Loaded 2048/8192 pages")), "...ii"},
		{"load completed", series(5, bpLoad(10000, 3000), pages(10, 8192),
			status("Innodb_buffer_pool_load_status", "Buffer pool(s) load completed at 261201 10:00:01")), "...CC"},
		{"restarted, cold and filling", series(14, bpLoad(10000, 3000), restartAt(3),
			func(i int, s *snapshot.Snapshot) { pages(8000-100*i, 8192)(i, s) }), "..........iiii"},
	})
	f := lastFinding(t, DefaultConfig(), series(5, bpLoad(10000, 3000), filling), IDBufferPoolMiss)
	mustContain(t, f, "while the pool fills", "still has 52,000 free pages (79 %)", "None needed while the pool fills")
}

// The monthly-incident reproductions / the clustered-index write-up: INSERTs into a random-key index miss on every row;
// the advice is an ordered key, not an index.
func TestBufferPoolMissRandomKeyInserts(t *testing.T) {
	ins := "INSERT INTO shop.events (id, payload) VALUES (UUID(), 'x')"
	snaps := series(5, bpLoad(20000, 3000), counters(map[string]float64{"Innodb_rows_inserted": 2500,
		"Innodb_rows_read": 300}), procs(query(5, 0, "Update", ins), query(6, 0, "Update", ins),
		query(7, 0, "Sending data", "SELECT 1 FROM shop.events WHERE id = 'a'")))
	f := lastFinding(t, DefaultConfig(), snaps, IDBufferPoolMiss)
	mustContain(t, f, "INSERTs into a random-key index", "2,500 rows written/s (2,500 inserted",
		"1.2 disk reads per row written", "inserting: 2 × insert into shop.events", "ordered key",
		"Another index will not help")
	// The same misses from SELECTs reading more rows than are written: the usual advice.
	reads := series(5, bpLoad(20000, 3000), counters(map[string]float64{"Innodb_rows_inserted": 100,
		"Innodb_rows_read": 50000}))
	if f := lastFinding(t, DefaultConfig(), reads, IDBufferPoolMiss); strings.Contains(f.Title, "random") {
		t.Errorf("reads called random-key writes: %s", f.Title)
	}
	// Sequential inserts append: a tiny miss per row is not this.
	seq := series(5, bpLoad(20000, 3000), counters(map[string]float64{"Innodb_rows_inserted": 50000,
		"Innodb_rows_read": 100}))
	if f := lastFinding(t, DefaultConfig(), seq, IDBufferPoolMiss); strings.Contains(f.Title, "random") {
		t.Errorf("0.06 reads per inserted row called random-key inserts: %s", f.Title)
	}
	// Without InnoDB's row counters moving, the handler's tell the same.
	handler := series(5, bpLoad(20000, 3000), counters(map[string]float64{"Handler_write": 2500,
		"Handler_read_key": 200}), procs(query(5, 0, "Update", ins)))
	f = lastFinding(t, DefaultConfig(), handler, IDBufferPoolMiss)
	mustContain(t, f, "INSERTs into a random-key index", "200 rows read/s (Handler_*)")
	upd := "UPDATE shop.users SET seen = NOW() WHERE id = 42"
	batch := series(5, bpLoad(20000, 3000), counters(map[string]float64{"Innodb_rows_updated": 2000,
		"Innodb_rows_read": 2000}), procs(query(5, 0, "Updating", upd)))
	f = lastFinding(t, DefaultConfig(), batch, IDBufferPoolMiss)
	mustContain(t, f, "writes in random key order", "Sort each batch by the primary key")
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

// A pool so small that the page cleaner's free reserve crowds out the data:
// 300 one-page tables on a 16M pool missed 40 % with 79 % of it free (the
// CI run of 2026-12-03); the cure is innodb_lru_scan_depth, named first.
func TestBufferPoolMissScanDepthReserve(t *testing.T) {
	small := func(free, total int, depth string) []*snapshot.Snapshot {
		return series(5, bpLoad(24000, 9700), status("Innodb_buffer_pool_pages_free", fmt.Sprint(free),
			"Innodb_buffer_pool_pages_total", fmt.Sprint(total)), vars("innodb_lru_scan_depth", depth,
			"innodb_buffer_pool_size", fmt.Sprint(total*16384)))
	}
	f := lastFinding(t, DefaultConfig(), small(804, 1014, "1536"), IDBufferPoolMiss)
	mustContain(t, f, "innodb_lru_scan_depth 1,536: the page cleaner evicts to keep about 768 pages free, 76 % of "+
		"this 1,014-page pool, so about 246 are left for data", "Lower innodb_lru_scan_depth")
	if f.Severity != snapshot.Critical {
		t.Errorf("severity %v, want critical: the misses are real", f.Severity)
	}
	for _, c := range []struct {
		name        string
		free, total int
		depth       string
	}{
		{"a 128M pool: the reserve is 9 %", 900, 8192, "1536"},
		{"a 32M pool: the reserve is 38 %, under half", 900, 2028, "1536"},
		{"a small pool with a small depth", 100, 1014, "128"},
	} {
		f := lastFinding(t, DefaultConfig(), small(c.free, c.total, c.depth), IDBufferPoolMiss)
		if strings.Contains(strings.Join(f.Evidence, "\n")+f.Advice, "lru_scan_depth") {
			t.Errorf("%s: named the scan depth: %v / %s", c.name, f.Evidence, f.Advice)
		}
	}
}
