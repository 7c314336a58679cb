package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// mysqld's memory running away (HOST-03's cause before the swap and the OOM
// killer): its resident size grows faster than anything by design, and at
// that rate the memory left runs out. The first a DBA usually learns of it is
// "mysqld restarted", so it is judged on the growth and the time left, not
// on a level. The memory left is the cgroup's limit first (where a
// container's mysqld meets the OOM killer), then the host's MemAvailable.
// Growth by design is the buffer pool filling: pages leave its free list
// (Innodb_buffer_pool_pages_free) as they are first touched, up to
// innodb_buffer_pool_size; that share of the growth is set aside.

// IDMysqldMemoryRunaway names the findings of mysqld_memory_runaway: a
// contract (the README's findings table), stable, never reused.
const IDMysqldMemoryRunaway = "mysqld_memory_runaway"

// MemoryConfig holds mysqld_memory_runaway's thresholds. Embedded in Config.
type MemoryConfig struct {
	// MemoryGrowthMin: resident growth a second, beyond the buffer pool's
	// filling, that counts as growing (UNKNOWN; 16 MB/s is a GB a minute,
	// far above what a session's buffers or caches take at rest). Trap: a
	// large sort or join allocates in bursts that are freed at the
	// statement's end, so it is judged over MemorySpan, not a second.
	MemoryGrowthMin float64
	// MemoryExhaustWarn and MemoryExhaustCrit: the time until the memory
	// left runs out at the current rate (UNKNOWN; PMM's memory alerts look
	// minutes ahead). Trap: a growth that stops (a MEMORY table reaching
	// max_heap_table_size) never arrives; the finding clears with the
	// growth.
	MemoryExhaustWarn time.Duration
	MemoryExhaustCrit time.Duration
	// MemoryRoomLowPct: memory left under this share of the ceiling while
	// mysqld grows is critical whatever the rate (GREGG: the kernel starts
	// reclaiming, then swapping, then killing near the bottom).
	MemoryRoomLowPct float64
	// MemorySpan is the span the growth is measured over, of which at least
	// MemoryMinSpan must be known.
	MemorySpan    time.Duration
	MemoryMinSpan time.Duration
}

func (c *MemoryConfig) defaults() {
	*c = MemoryConfig{MemoryGrowthMin: 16 << 20, MemoryExhaustWarn: 10 * time.Minute,
		MemoryExhaustCrit: time.Minute, MemoryRoomLowPct: 5, MemorySpan: 5 * time.Second,
		MemoryMinSpan: 2 * time.Second}
}

// mysqldMemoryRunawayRule is mysqld_memory_runaway in the rules table
// (rule.go). A 2-s onset over a 5-s span: memory ran from 107 MB to 4.5 GB
// in 15 s in the incident that asked for it, so the warning must come in
// seconds to come before the OOM killer.
var mysqldMemoryRunawayRule = rule{id: IDMysqldMemoryRunaway, check: checkMysqldMemoryRunaway,
	persist: persistFor(2*time.Second, 10*time.Second)}

// memoryKeptStatus are the counters read from older frames: the pool's
// free pages (its filling) and MariaDB's own count of its memory.
var memoryKeptStatus = []string{"Innodb_buffer_pool_pages_free", "Memory_used"}

// memGrowth is mysqld's resident growth over the span.
type memGrowth struct {
	rss      float64 // bytes now
	rate     float64 // bytes a second
	poolFill float64 // bytes a second the buffer pool's filling accounts for
	used     float64 // Memory_used's growth a second
	usedOK   bool    // Memory_used is known (MariaDB)
	span     time.Duration
}

// beyondDesign is the growth nothing by design explains: less the buffer
// pool's filling and, where the server counts its own allocations
// (MariaDB's Memory_used, which counts the pool once, at start-up), no
// more than that count grew. Memory already allocated becoming resident
// (the pool's pages first touched) stops at its size; a MEMORY table, a
// session's buffers or a leak through the server's allocator move the
// count. Measured: a 1 GB pool filling grew mysqld 51 MB/s with 25 MB/s
// of pages leaving the free list and Memory_used flat.
func (g memGrowth) beyondDesign() float64 {
	grow := g.rate - g.poolFill
	if g.usedOK {
		grow = min(grow, g.used)
	}
	return grow
}

func checkMysqldMemoryRunaway(w *window, c *Config) verdict {
	if r := w.hostNA(); r != "" {
		return notApplicable(r)
	}
	h := w.snap.Host
	if h == nil || h.Mysqld == nil || h.Mysqld.RSSBytes == 0 {
		return notApplicable("mysqld's resident size is not known (its process is not readable here)")
	}
	g, ok := mysqldGrowth(w, c)
	if !ok {
		return quiet()
	}
	room, ceiling, ceilingName := memoryRoom(h)
	if ceiling == 0 {
		return notApplicable("the host's memory is not known")
	}
	grows := g.beyondDesign() >= c.MemoryGrowthMin
	poolOverflows := g.poolFill >= c.MemoryGrowthMin && poolLeft(w) > room
	if !grows && !poolOverflows {
		return quiet()
	}
	left := time.Duration(float64(time.Second) * room / max(g.rate, 1))
	low := 100*room/ceiling < c.MemoryRoomLowPct
	if left > c.MemoryExhaustWarn && !low {
		return quiet()
	}
	sev := snapshot.Warning
	if left <= c.MemoryExhaustCrit || low {
		sev = snapshot.Critical
	}
	title := fmt.Sprintf("mysqld's memory grows %s/s (%s now): %s left, gone in about %s at this rate",
		fmtBytes(g.rate), fmtBytes(g.rss), fmtBytes(room), fmtDuration(left.Round(time.Second)))
	ev := []string{fmt.Sprintf("mysqld resident %s, +%s/s over the last %s", fmtBytes(g.rss), fmtBytes(g.rate),
		fmtDuration(g.span.Round(100*time.Millisecond))),
		fmt.Sprintf("memory left: %s of %s (%s)", fmtBytes(room), fmtBytes(ceiling), ceilingName)}
	if g.poolFill > 0 {
		ev = append(ev, fmt.Sprintf("the buffer pool filling accounts for %s/s of it (%s of the pool still free)",
			fmtBytes(g.poolFill), fmtBytes(poolLeft(w))))
	}
	holders, advice := memoryHolderLines(w, g)
	ev = append(ev, holders...)
	ev = appendNonEmpty(ev, memorySuspects(w, ceiling))
	if poolOverflows && !grows {
		title = fmt.Sprintf("the buffer pool is filling past the memory left: %s of it still to fill, %s left",
			fmtBytes(poolLeft(w)), fmtBytes(room))
		advice = "innodb_buffer_pool_size is larger than the memory this host can give it: shrink it " +
			"(SET GLOBAL innodb_buffer_pool_size resizes it online) before the pool fills."
	}
	return raise(sev, title, ev, advice, memoryThreads(w))
}

// mysqldGrowth measures the resident growth over the span.
func mysqldGrowth(w *window, c *Config) (memGrowth, bool) {
	cur := w.cur
	var first *snapshot.Frame
	for _, f := range w.frames {
		h := f.Snapshot.Host
		if h == nil || h.Mysqld == nil || h.Mysqld.RSSBytes == 0 || cur.Snapshot.Time.Sub(f.Snapshot.Time) > c.MemorySpan {
			continue
		}
		if h.Mysqld.PID == cur.Snapshot.Host.Mysqld.PID {
			first = f
			break
		}
	}
	if first == nil {
		return memGrowth{}, false
	}
	span := cur.Snapshot.Time.Sub(first.Snapshot.Time)
	if span < c.MemoryMinSpan {
		return memGrowth{}, false
	}
	secs := span.Seconds()
	g := memGrowth{rss: float64(cur.Snapshot.Host.Mysqld.RSSBytes), span: span}
	g.rate = (g.rss - float64(first.Snapshot.Host.Mysqld.RSSBytes)) / secs
	if a, ok1 := first.Snapshot.StatusFloat("Innodb_buffer_pool_pages_free"); ok1 {
		if b, ok2 := cur.Snapshot.StatusFloat("Innodb_buffer_pool_pages_free"); ok2 && a > b {
			g.poolFill = (a - b) * pageSize(w) / secs
		}
	}
	if a, ok1 := first.Snapshot.StatusFloat("Memory_used"); ok1 {
		if b, ok2 := cur.Snapshot.StatusFloat("Memory_used"); ok2 {
			g.used, g.usedOK = (b-a)/secs, true
		}
	}
	return g, true
}

// memoryRoom is the memory mysqld may still take and what bounds it: the
// cgroup's limit when one holds it, and the host's MemAvailable, the
// smaller of the two.
func memoryRoom(h *snapshot.Host) (room, ceiling float64, name string) {
	if h.MemTotal > 0 {
		room, ceiling = float64(h.MemAvailable), float64(h.MemTotal)
		name = "the host's MemAvailable"
	}
	if m := h.Mysqld; m.MemLimit > 0 {
		cg := float64(m.MemLimit) - float64(max(m.RSSBytes, 0))
		if ceiling == 0 || cg < room {
			room, ceiling = max(cg, 0), float64(m.MemLimit)
			name = "the cgroup's memory limit, less mysqld's resident size"
		}
	}
	return room, ceiling, name
}

// pageSize is InnoDB's page size (16K unless the server says otherwise).
func pageSize(w *window) float64 {
	if v, ok := w.snap.StatusFloat("Innodb_page_size"); ok && v > 0 {
		return v
	}
	if v, ok := w.snap.VarFloat("innodb_page_size"); ok && v > 0 {
		return v
	}
	return 16384
}

// poolLeft is the buffer pool not yet touched, which its filling will take.
func poolLeft(w *window) float64 {
	free, _ := w.snap.StatusFloat("Innodb_buffer_pool_pages_free")
	return free * pageSize(w)
}
