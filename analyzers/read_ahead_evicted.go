package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Read-ahead evicted unused (BP-04): InnoDB read pages ahead of a scan (or
// of random accesses to one extent), and they left the buffer pool before
// anything read them: disk reads and pool space spent for nothing. Judged
// on Innodb_buffer_pool_read_ahead_evicted against
// Innodb_buffer_pool_read_ahead summed over the last ReadAheadWindow: a
// scan reads ahead in bursts (one area at a time, 16-64 pages), so single
// seconds swing between 0 and hundreds of pages, and a per-second share
// broke the persistence of a thrash that never stopped (named after 11.6 s
// instead of 5 on a loaded machine).

// ReadAheadConfig holds read_ahead_evicted's thresholds. Embedded in Config.
type ReadAheadConfig struct {
	// ReadAheadEvictedWarn: % of this interval's read-ahead pages evicted
	// unused (BP-04: MT badprint > 20 %, which suggests lowering
	// read-ahead). Trap: MT's since-start-up ratio; judged per interval.
	// Kept after the live reproduction on MariaDB 10.11.19
	// (TestIntegrationReadAheadEvicted: 8 short range scans, threshold 8, a
	// 6M pool: 158-399 pages/s read ahead, 116-393/s evicted unused, 41 %
	// when named). Trap of MariaDB 10.6+: the counter rises only when a
	// user thread's own LRU scan evicts an unread page
	// (buf_LRU_free_from_common_LRU_list); pages the page cleaner evicts
	// to keep the free list filled are not counted. While the cleaner keeps
	// up the share reads 0 whatever is wasted (the same scans with a free
	// list of 40-90 pages: 100-200 pages/s read ahead, 0 counted), so the
	// share is a lower bound and a quiet rule proves nothing.
	ReadAheadEvictedWarn float64
	// ReadAheadMinPages: read-ahead pages per second below which the share is
	// not judged (UNKNOWN; one extent, 64 pages of 16K, a second). Trap: a
	// near-zero denominator. Trap: InnoDB reads ahead one area at a time,
	// min(64, pool pages / 32 rounded up to a power of two) pages
	// (buf_pool.read_ahead_area): 16 on a 6M pool, where the wasteful scans of
	// TestIntegrationReadAheadEvicted read 68-124 pages/s ahead. So the floor
	// is one area a second where the pool is too small for 64 (readAheadFloor).
	ReadAheadMinPages float64
	// ReadAheadWindow: the span the share and the floor are judged over
	// (PTS's 5 x 1 s for a sustained rate, as sums rather than five
	// separate seconds); at least ReadAheadMinSpan of it must be known.
	ReadAheadWindow  time.Duration
	ReadAheadMinSpan time.Duration
}

func (c *ReadAheadConfig) defaults() {
	*c = ReadAheadConfig{ReadAheadEvictedWarn: 20, ReadAheadMinPages: 64,
		ReadAheadWindow: 5 * time.Second, ReadAheadMinSpan: 2 * time.Second}
}

const (
	raPages   = "Innodb_buffer_pool_read_ahead"
	raEvicted = "Innodb_buffer_pool_read_ahead_evicted"
)

// IDReadAheadEvicted names the findings of read_ahead_evicted: a contract (the
// README's findings table), stable, never reused.
const IDReadAheadEvicted = "read_ahead_evicted"

// readAheadEvictedRule is read_ahead_evicted in the rules table (rule.go).
// The share over a 5-s span, held 6 s: one burst stays in the span for 5 s
// at most, so only waste in more than one second raises (MT gives no
// duration; APA/ZBX's minutes would miss a thrash that a DBA needs named
// within seconds).
var readAheadEvictedRule = rule{id: IDReadAheadEvicted, check: checkReadAheadEvicted,
	persist: persistFor(6*time.Second, 10*time.Second), held: true}

func checkReadAheadEvicted(w *window, c *Config) verdict {
	if r := w.statusNA(raPages, raEvicted); r != "" {
		return notApplicable(r)
	}
	if w.warmingUp(c) != "" {
		return quiet()
	}
	read, ok1 := w.spanOver(raPages, c.ReadAheadWindow, c.ReadAheadMinSpan)
	gone, ok2 := w.spanOver(raEvicted, c.ReadAheadWindow, c.ReadAheadMinSpan)
	pages := read.perSec()
	if !ok1 || !ok2 || pages < readAheadFloor(w, c) {
		return quiet()
	}
	share := 100 * min(gone.delta/read.delta, 1)
	if share <= c.ReadAheadEvictedWarn {
		return quiet()
	}
	ev := []string{fmt.Sprintf("%.0f %% of the %.0f pages read ahead over the last %.0f s were evicted before any use",
		share, read.delta, read.elapsed.Seconds())}
	ev = append(ev, w.counterLines(raPages, raEvicted, "Innodb_buffer_pool_read_ahead_rnd", "Innodb_buffer_pool_reads",
		"Innodb_pages_read")...)
	th, thOK := w.variable("innodb_read_ahead_threshold")
	if thOK {
		ev = append(ev, "innodb_read_ahead_threshold="+th)
	}
	rnd, _ := w.variable("innodb_random_read_ahead")
	if rnd != "" {
		ev = append(ev, "innodb_random_read_ahead="+rnd)
	}
	if v, ok := w.snap.VarFloat("innodb_buffer_pool_size"); ok {
		ev = append(ev, "innodb_buffer_pool_size="+fmtBytes(v))
	}
	advice := "Make read-ahead less eager: raise innodb_read_ahead_threshold"
	if thOK {
		advice += " from " + th
	}
	advice += " towards 64 (pages of an extent that must be read in order before the next extent is fetched; " +
		"default 56)"
	if isOn(rnd) {
		advice += ", and SET GLOBAL innodb_random_read_ahead = OFF"
	}
	advice += ". Pages evicted before use also mean a pool too small for the scans sharing it: see " +
		"buffer_pool_miss, and the scanning statements."
	return raise(snapshot.Warning, fmt.Sprintf("read-ahead wasted: %.0f %% of %s pages/s read ahead are evicted unused",
		share, fmtRate(pages)), ev, advice, nil)
}

// readAheadFloor is ReadAheadMinPages, lowered to one read-ahead area a
// second on a pool too small for areas of 64 pages.
func readAheadFloor(w *window, c *Config) float64 {
	pool, ok1 := w.snap.VarFloat("innodb_buffer_pool_size")
	page, ok2 := w.snap.VarFloat("innodb_page_size")
	if !ok1 || !ok2 || page <= 0 {
		return c.ReadAheadMinPages
	}
	area := 1.0
	for area < 64 && area < pool/page/32 {
		area *= 2
	}
	return min(c.ReadAheadMinPages, area)
}
