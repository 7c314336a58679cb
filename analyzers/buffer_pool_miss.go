package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Logical reads the buffer pool could not serve went to disk (BP-01). Judged
// per interval, never since start-up, and only when enough reads happen for a
// ratio to mean something.
const (
	bpReads    = "Innodb_buffer_pool_reads"
	bpRequests = "Innodb_buffer_pool_read_requests"
)

func checkBufferPoolMiss(w *window, c *Config) verdict {
	if r := w.statusNA(bpReads, bpRequests); r != "" {
		return notApplicable(r)
	}
	if w.warmingUp(c) != "" {
		return quiet()
	}
	reqs, ok1 := w.rate(bpRequests)
	reads, ok2 := w.rate(bpReads)
	// More misses than requests means the counters are not reliable (MT).
	if !ok1 || !ok2 || reqs < c.BufferPoolMinRequests || reads > reqs {
		return quiet()
	}
	hit := 100 * (1 - reads/reqs)
	if hit >= c.BufferPoolHitWarn {
		return quiet()
	}
	young := bpStillWarming(w, c)
	sev := snapshot.Warning
	if hit <= c.BufferPoolHitCrit && young == "" {
		sev = snapshot.Critical
	}
	title := fmt.Sprintf("buffer pool hit %.1f %%: %s reads/s go to disk", hit, fmtRate(reads))
	return raise(sev, title, bpEvidence(w, hit, young), bpAdvice(w), nil)
}

// bpStillWarming says when the pool may still be filling after a start: the
// misses are then partly the cache warming up (BP-01 trap), or "".
func bpStillWarming(w *window, c *Config) string {
	up, ok := w.snap.Uptime()
	if !ok || time.Duration(up)*time.Second >= c.RestartedRecent {
		return ""
	}
	return fmt.Sprintf("server started %d s ago: part of these misses is the buffer pool warming up", up)
}

func bpEvidence(w *window, hit float64, young string) []string {
	ev := []string{fmt.Sprintf("hit %.1f %% this interval = 1 - %s / %s", hit, bpReads, bpRequests)}
	ev = appendNonEmpty(ev, young)
	ev = append(ev, w.counterLines(bpReads, bpRequests, "Innodb_buffer_pool_read_ahead", "Innodb_data_reads")...)
	ev = appendNonEmpty(ev, bpFreePages(w), bpSizing(w))
	ev = append(ev, bpReaders(w)...)
	return appendNonEmpty(ev, busiestDisk(w))
}

// bpReaders names who reads: the long-running statements, else the
// statements running at this sample, grouped (random short reads on a table
// larger than the pool miss just as much as one long scan).
func bpReaders(w *window) []string {
	if long := w.longRunningLines(); len(long) > 0 {
		return long
	}
	var out []string
	for _, s := range topStatements(w.processes().running(0, "SELECT", "UPDATE", "DELETE", "INSERT", "REPLACE")) {
		out = append(out, "running now: "+s)
	}
	return out
}

func bpFreePages(w *window) string {
	free, ok1 := w.snap.StatusInt("Innodb_buffer_pool_pages_free")
	total, ok2 := w.snap.StatusInt("Innodb_buffer_pool_pages_total")
	if !ok1 || !ok2 || total == 0 {
		return ""
	}
	line := fmt.Sprintf("buffer pool free pages %s of %s (%.0f %%)", fmtCount(free), fmtCount(total),
		100*float64(free)/float64(total))
	if size, ok := w.snap.VarFloat("innodb_buffer_pool_size"); ok {
		line += ", innodb_buffer_pool_size=" + fmtBytes(size)
	}
	return line
}

func bpAdvice(w *window) string {
	size := ""
	if s, ok := w.snap.VarFloat("innodb_buffer_pool_size"); ok {
		size = " (now " + fmtBytes(s) + ")"
	}
	grow := "raise innodb_buffer_pool_size" + size + " towards the size of the working set."
	if t := bpTarget(w); t != "" {
		grow = t + "."
	}
	return "Find the statement streaming through the buffer pool (long-running statements above; see " +
		"full_scan_update) and give it an index. If the hot data has outgrown the pool, " + grow
}

// busiestDisk is the evidence line of the most utilised device, or "".
func busiestDisk(w *window) string {
	hr := w.hostRates()
	if hr == nil {
		return ""
	}
	var best *snapshot.DiskRate
	for i := range hr.Disks {
		if best == nil || hr.Disks[i].UtilPercent > best.UtilPercent {
			best = &hr.Disks[i]
		}
	}
	if best == nil {
		return ""
	}
	return diskLine(best)
}

func diskLine(d *snapshot.DiskRate) string {
	return fmt.Sprintf("disk %s: util %.0f %%, await %.1f ms, %s reads/s, %s writes/s, queue %.1f",
		d.Name, d.UtilPercent, d.AwaitMS, fmtRate(d.ReadsPerSec), fmtRate(d.WritesPerSec), d.QueueDepth)
}
