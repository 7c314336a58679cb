package analyzers

import "fmt"

// bpScanDepth says when the page cleaner's free-page reserve takes most of a
// small pool, or "". MariaDB's page cleaner evicts from the LRU while fewer
// than innodb_lru_scan_depth/2 pages are free (buf_pool_t::need_LRU_eviction,
// 10.6+); at the default 1536 on a 16M pool (1,014 pages) that keeps ~770
// free and leaves ~250 for data, so 300 one-page tables miss 40 % of their
// reads with 79 % of the pool free (measured, MariaDB 10.11.19; SET GLOBAL
// innodb_lru_scan_depth=128 took the misses to 0).
func bpScanDepth(w *window, c *Config) string {
	depth, ok := lruScanDepth(w)
	total, ok2 := w.snap.StatusInt("Innodb_buffer_pool_pages_total")
	if !ok || !ok2 || total <= 0 {
		return ""
	}
	kept := depth / 2
	share := 100 * float64(kept) / float64(total)
	if share < c.BufferPoolScanDepthShare {
		return ""
	}
	return fmt.Sprintf("innodb_lru_scan_depth %s: the page cleaner evicts to keep about %s pages free, %.0f %% of "+
		"this %s-page pool, so about %s are left for data", fmtCount(depth), fmtCount(kept), share,
		fmtCount(total), fmtCount(max(total-kept, 0)))
}

// lruScanDepth is innodb_lru_scan_depth, when the server says.
func lruScanDepth(w *window) (int64, bool) {
	v, ok := w.snap.VarFloat("innodb_lru_scan_depth")
	return int64(v), ok && v > 0
}

// bpScanDepthAdvice is the cure when bpScanDepth names the cause.
const bpScanDepthAdvice = "Lower innodb_lru_scan_depth (dynamic: SET GLOBAL innodb_lru_scan_depth=128 and in my.cnf) " +
	"so the page cleaner stops emptying this small pool, or raise innodb_buffer_pool_size. "
