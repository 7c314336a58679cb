package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A foreground thread needed a free buffer-pool page and found none: it
// waited while a dirty page was flushed to make room (BP-02; MySQL docs: "If
// innodb_buffer_pool_size has been set properly, this value should be
// small"). MT flags any; judged per interval, never on the cumulative value
// (MT's trap: one old event would fire forever). The waits come in bursts,
// so a rise in WaitFreeSightingsMin of the last SightingWindow intervals
// holds the finding between them.
const bpWaitFree = "Innodb_buffer_pool_wait_free"

// IDBufferPoolWaitFree names the findings of buffer_pool_wait_free: a contract
// (the README's findings table), stable, never reused.
const IDBufferPoolWaitFree = "buffer_pool_wait_free"

// WaitFreeConfig holds buffer_pool_wait_free's thresholds, each with its source
// and the trap it avoids.
type WaitFreeConfig struct {
	// WaitFreeSightingsMin: Innodb_buffer_pool_wait_free rose in this many of
	// the last SightingWindow intervals (BP-02: MT flags any increase; the
	// waits come in bursts a few seconds apart, so one rise holds the finding
	// for the window). Trap avoided: the cumulative counter (MT's own check)
	// would fire forever after one old event; only rises count.
	WaitFreeSightingsMin int
}

func (c *WaitFreeConfig) defaults() {
	*c = WaitFreeConfig{
		WaitFreeSightingsMin: 1,
	}
}

// bufferPoolWaitFreeRule is buffer_pool_wait_free in the rules table
// (rule.go). Counted over SightingWindow / QCYieldWindow already.
var bufferPoolWaitFreeRule = rule{id: IDBufferPoolWaitFree, check: checkBufferPoolWaitFree, persist: persistFor(1*time.Second, 5*time.Second)}

func checkBufferPoolWaitFree(w *window, c *Config) verdict {
	if r := w.statusNA(bpWaitFree); r != "" {
		return notApplicable(r)
	}
	if w.warmingUp(c) != "" {
		return quiet()
	}
	rising, total := waitFreeRises(w, c.SightingWindow)
	if rising < max(c.WaitFreeSightingsMin, 1) {
		return quiet()
	}
	title := fmt.Sprintf("threads waited for a free buffer pool page %s times in the last %d intervals",
		fmtCount(int64(total+0.5)), min(c.SightingWindow, len(w.frames)-1))
	ev := []string{fmt.Sprintf("%s rose in %d of the last %d intervals", bpWaitFree, rising,
		min(c.SightingWindow, len(w.frames)-1))}
	ev = append(ev, w.counterLines(bpWaitFree, "Innodb_buffer_pool_pages_flushed", bpReads)...)
	ev = appendNonEmpty(ev, bpFreePages(w), bpDirtyPages(w), bpPendingWrites(w), ioCapacity(w), busiestDisk(w))
	return raise(snapshot.Warning, title, ev, waitFreeAdvice(w), nil)
}

// waitFreeRises counts the recent intervals in which the counter rose, and by how much.
func waitFreeRises(w *window, n int) (rising int, total float64) {
	for _, f := range w.recent(n) {
		if f.Rates == nil {
			continue
		}
		if r, ok := f.Rates.Rate(bpWaitFree); ok && r > 0 {
			rising++
			total += r * f.Rates.Interval
		}
	}
	return rising, total
}

func bpDirtyPages(w *window) string {
	dirty, ok1 := w.snap.StatusInt("Innodb_buffer_pool_pages_dirty")
	total, ok2 := w.snap.StatusInt("Innodb_buffer_pool_pages_total")
	if !ok1 || !ok2 || total == 0 {
		return ""
	}
	line := fmt.Sprintf("dirty pages %s of %s (%.0f %%)", fmtCount(dirty), fmtCount(total), 100*float64(dirty)/float64(total))
	if pct, ok := w.variable("innodb_max_dirty_pages_pct"); ok {
		line += ", innodb_max_dirty_pages_pct=" + pct
	}
	return line
}

// bpPendingWrites is SEIS "Pending writes: LRU N, flush list N", when read.
func bpPendingWrites(w *window) string {
	in := w.snap.InnoDB
	if in == nil || !in.BufferPool.Present {
		return ""
	}
	bp := in.BufferPool
	return fmt.Sprintf("InnoDB status: pending writes LRU %d, flush list %d, single page %d; free buffers %s",
		bp.PendingWritesLRU, bp.PendingWritesFlushList, bp.PendingWritesSinglePage, fmtCount(bp.FreePages))
}

func ioCapacity(w *window) string {
	c, ok1 := w.variable("innodb_io_capacity")
	m, ok2 := w.variable("innodb_io_capacity_max")
	if !ok1 || !ok2 {
		return ""
	}
	line := "innodb_io_capacity=" + c + ", innodb_io_capacity_max=" + m
	if d, ok := w.variable("innodb_lru_scan_depth"); ok {
		line += ", innodb_lru_scan_depth=" + d
	}
	return line
}

func waitFreeAdvice(w *window) string {
	now := ""
	if c, ok := w.variable("innodb_io_capacity"); ok {
		now = " (now " + c + ")"
	}
	return "The page cleaner does not keep free pages ahead of demand. Let it flush faster: raise " +
		"innodb_io_capacity" + now + " towards what the disk sustains (and innodb_io_capacity_max with it); " +
		"if the pool is small for the data (see buffer_pool_miss), raise innodb_buffer_pool_size."
}
