package analyzers

import (
	"fmt"
	"strings"
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

// IDBufferPoolMiss names the findings of buffer_pool_miss: a contract (the
// README's findings table), stable, never reused.
const IDBufferPoolMiss = "buffer_pool_miss"

// bufferPoolMissRule is buffer_pool_miss in the rules table (rule.go); it
// keeps Config.DefaultPersistence.
var bufferPoolMissRule = rule{id: IDBufferPoolMiss, check: checkBufferPoolMiss, held: true}

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
	if !ok1 || !ok2 || reqs < c.BufferPoolMinRequests || reads > reqs || reads < c.BufferPoolMinReadsPerSec {
		return quiet()
	}
	hit := 100 * (1 - reads/reqs)
	if hit >= c.BufferPoolHitWarn {
		return quiet()
	}
	young := bpStillWarming(w, c)
	filling := bpFilling(w, c)
	sev := snapshot.Warning
	switch {
	case filling != "":
		// Nothing was evicted to make room: the misses are first reads of
		// pages into a pool that is not full, which a bigger pool would not
		// save. Worth knowing, not an alarm.
		sev = snapshot.Info
	case hit <= c.BufferPoolHitCrit && young == "":
		sev = snapshot.Critical
	}
	title := fmt.Sprintf("buffer pool hit %.1f %%: %s reads/s go to disk", hit, fmtRate(reads))
	if filling != "" {
		title += " while the pool fills"
	}
	rk := bpRandomKeyWrites(w, c, reads)
	if rk != nil {
		title += ": " + rk.title
	}
	ev := bpEvidence(w, hit, young)
	ev = appendNonEmpty(ev, filling)
	advice := bpAdvice(w)
	if depth := bpScanDepth(w, c); depth != "" && filling == "" {
		ev = append(ev, depth)
		advice = bpScanDepthAdvice + advice
	}
	if rk != nil {
		ev = append(ev, rk.evidence...)
		advice = rk.advice
	}
	if filling != "" && rk == nil {
		advice = "None needed while the pool fills: once it is full, misses that go on mean the working set " +
			"has outgrown it. " + advice
	}
	return raise(sev, title, ev, advice, nil)
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

// bpFilling says why the misses are a pool filling, not one too small, or
// "": a buffer pool dump still loading (Innodb_buffer_pool_load_status), or
// free pages beyond what the page cleaner keeps free on a full pool (more
// than BufferPoolFillingFreeShare % of the pool and more than
// innodb_lru_scan_depth pages): no page was evicted to make room.
func bpFilling(w *window, c *Config) string {
	if st, ok := w.snap.Status["Innodb_buffer_pool_load_status"]; ok && bpLoadRunning(st) {
		return "the buffer pool is loading its saved pages (Innodb_buffer_pool_load_status: " + st + ")"
	}
	free, ok1 := w.snap.StatusInt("Innodb_buffer_pool_pages_free")
	total, ok2 := w.snap.StatusInt("Innodb_buffer_pool_pages_total")
	if !ok1 || !ok2 || total <= 0 {
		return ""
	}
	keep := int64(1024) // innodb_lru_scan_depth's default
	if v, ok := lruScanDepth(w); ok {
		keep = v
	}
	share := 100 * float64(free) / float64(total)
	if free <= keep || share <= c.BufferPoolFillingFreeShare {
		return ""
	}
	return fmt.Sprintf("the pool still has %s free pages (%.0f %%): these are first reads into a pool that is "+
		"not full, nothing was evicted for them", fmtCount(free), share)
}

// bpLoadRunning reads Innodb_buffer_pool_load_status: "Loaded 512/8192
// pages", "Loading buffer pool(s) from ...", against "Buffer pool(s) load
// completed at ...", "... not started", "... aborted".
func bpLoadRunning(st string) bool {
	l := strings.ToLower(st)
	if strings.Contains(l, "completed") || strings.Contains(l, "not started") || strings.Contains(l, "aborted") ||
		strings.Contains(l, "error") || l == "" {
		return false
	}
	return strings.HasPrefix(l, "loaded ") || strings.HasPrefix(l, "loading")
}

// rowsMoved is rows inserted, updated, deleted and read per second: InnoDB's
// own counters when they moved this interval, else the handler's
// (Handler_write, _update, _delete, and the Handler_read_* rows), which every
// flavour keeps (under a random-key INSERT load on MariaDB 10.11.19 the
// monitor read Innodb_rows_inserted at 0/s, measured).
func rowsMoved(w *window) (ins, upd, del, read float64, src string) {
	r := func(n string) float64 { v, _ := w.rate(n); return v }
	ins, upd, del, read = r("Innodb_rows_inserted"), r("Innodb_rows_updated"), r("Innodb_rows_deleted"), r("Innodb_rows_read")
	if ins+upd+del > 0 {
		return ins, upd, del, read, "Innodb_rows_*"
	}
	read = r("Handler_read_key") + r("Handler_read_next") + r("Handler_read_prev") + r("Handler_read_first") +
		r("Handler_read_rnd") + r("Handler_read_rnd_next")
	return r("Handler_write"), r("Handler_update"), r("Handler_delete"), read, "Handler_*"
}

// randomKeyWrites is what bpRandomKeyWrites found.
type randomKeyWrites struct {
	title, advice string
	evidence      []string
}

// bpRandomKeyWrites recognises misses made by writes landing all over an
// index (the clustered-index write-up: random primary-key order 200× slower than
// sequential): the rows written per second outnumber the rows read, each
// written row costs a page read from disk (BufferPoolMissesPerWrite or
// more), and the statements running are INSERTs (a random key: UUID, hash)
// or UPDATE/DELETE batches (keys in random order). An appended sequential
// key touches one hot page and misses nothing. nil when it is not that.
func bpRandomKeyWrites(w *window, c *Config, reads float64) *randomKeyWrites {
	ins, upd, del, rowsRead, src := rowsMoved(w)
	written := ins + upd + del
	if written <= 0 || written < rowsRead || reads/written < c.BufferPoolMissesPerWrite {
		return nil
	}
	pv := w.processes()
	inserts := pv.running(0, "INSERT", "REPLACE")
	changes := pv.running(0, "UPDATE", "DELETE")
	all := pv.running(0, "SELECT", "UPDATE", "DELETE", "INSERT", "REPLACE")
	ev := []string{fmt.Sprintf("%s rows written/s (%s inserted, %s updated, %s deleted) against %s rows read/s (%s): "+
		"%.1f disk reads per row written", fmtRate(written), fmtRate(ins), fmtRate(upd), fmtRate(del),
		fmtRate(rowsRead), src, reads/written)}
	switch {
	case ins >= upd+del && (len(all) == 0 || 2*len(inserts) >= len(all)):
		for _, s := range topStatements(inserts) {
			ev = append(ev, "inserting: "+s)
		}
		return &randomKeyWrites{
			title: "INSERTs into a random-key index",
			evidence: append(ev, "each INSERT reads the index page its key falls on: a random key (UUID, hash) "+
				"spreads them over the whole index, an increasing key appends to one hot page"),
			advice: "Give the table an ordered key: an AUTO_INCREMENT or time-ordered primary key (UUID v1 with " +
				"its time fields swapped to the front, UUID v7), keeping the random value as a secondary UNIQUE " +
				"key if it must be looked up; or load in primary-key order. Another index will not help: it is " +
				"one more tree to update at random.",
		}
	case upd+del > ins && (len(all) == 0 || 2*len(changes) >= len(all)):
		for _, s := range topStatements(changes) {
			ev = append(ev, "changing: "+s)
		}
		return &randomKeyWrites{
			title:    "writes in random key order",
			evidence: append(ev, "each UPDATE/DELETE by key reads the page its key falls on; keys in random order touch pages all over the table"),
			advice: "Sort each batch by the primary key before applying it (the clustered-index write-up: random order 200× " +
				"slower than sequential), or keep the hot rows together; an index will not help.",
		}
	}
	return nil
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
