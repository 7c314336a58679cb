package analyzers

import (
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// A 16M pool with MariaDB's default innodb_lru_scan_depth (1536): the page
// cleaner keeps about 770 of its 1,014 pages free, so 300 one-page tables do
// not fit and their reads miss (what CI met on 2026-12-03 in the warm table
// cache twin). The rule names the reserve, and SET GLOBAL
// innodb_lru_scan_depth=128, its advice, really ends the misses.
func TestIntegrationBufferPoolScanDepthReserve(t *testing.T) {
	t.Parallel()
	// Two clients flat out: one paced client met the 100 reads/s floor
	// only after 80 s on a loaded host.
	testdb.Heavy(t)
	srv := testdb.Start(t) // testdb's pool is 16M
	manyTables(t, srv, 300, "InnoDB")
	w := newWorkload(t)
	var named, lowered time.Time
	calm := 0
	watch(t, srv, within(90*time.Second), judged(noWarmup(DefaultConfig())), until(func(f *snapshot.Frame) bool {
		if !w.startWhenWarm(f, noWarmup(DefaultConfig()), func() { tableReads(w, srv, 2, 300) }) {
			return false
		}
		x := findingIn(f, IDBufferPoolMiss)
		switch {
		case named.IsZero() && x != nil && strings.Contains(strings.Join(x.Evidence, "\n"), "innodb_lru_scan_depth 1,536"):
			named = time.Now()
			t.Logf("named %.1f s after the reads began: %s", named.Sub(w.began).Seconds(), x.Advice)
			if !strings.HasPrefix(x.Advice, "Lower innodb_lru_scan_depth") {
				t.Errorf("advice does not lead with the scan depth: %s", x.Advice)
			}
			srv.Exec(t, "SET GLOBAL innodb_lru_scan_depth = 128")
			lowered = time.Now()
		case !lowered.IsZero() && x == nil:
			calm++
		case !lowered.IsZero():
			calm = 0
		}
		return calm >= 5
	}))
	if named.IsZero() {
		t.Fatal("buffer_pool_miss never named innodb_lru_scan_depth on a 16M pool")
	}
	if calm < 5 {
		t.Fatalf("misses went on after SET GLOBAL innodb_lru_scan_depth = 128")
	}
	t.Logf("quiet for 5 frames %.1f s after lowering the scan depth", time.Since(lowered).Seconds())
}
