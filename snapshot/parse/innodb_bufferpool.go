package parse

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// parseBufferPool reads the BUFFER POOL AND MEMORY section. With several instances this
// section holds the totals; the per-instance blocks come in INDIVIDUAL BUFFER
// POOL INFO, which is not read, so nothing is counted twice.
func parseBufferPool(b *snapshot.InnoDBBufferPool, body string) {
	b.Present = true
	dirtyPrinted := false
	for line := range lines(body) {
		switch {
		case strings.HasPrefix(line, "Total large memory allocated "),
			strings.HasPrefix(line, "Total memory allocated "):
			setInt(&b.TotalMemBytes, line, "allocated ")
		case strings.HasPrefix(line, "Buffer pool size, bytes "):
			setInt(&b.SizeBytes, line, "bytes ")
		case strings.HasPrefix(line, "Buffer pool size "):
			setInt(&b.SizePages, line, "size ")
		case strings.HasPrefix(line, "Free buffers "):
			setInt(&b.FreePages, line, "buffers ")
		case strings.HasPrefix(line, "Database pages "):
			setInt(&b.DatabasePages, line, "pages ")
		case strings.HasPrefix(line, "Old database pages "):
			setInt(&b.OldPages, line, "pages ")
		case strings.HasPrefix(line, "Modified db pages "):
			setInt(&b.ModifiedPages, line, "pages ")
		case strings.HasPrefix(line, "Percent of dirty pages"):
			if v, ok := floatAfter(line, "): "); ok {
				b.DirtyPercent, dirtyPrinted = v, true
			}
		case strings.HasPrefix(line, "Pending reads "):
			setInt(&b.PendingReads, line, "reads ")
		case strings.HasPrefix(line, "Pending writes: "):
			parsePendingWrites(b, line)
		case strings.HasPrefix(line, "Pages read ahead "):
			parseReadAhead(b, line)
		case strings.HasPrefix(line, "Pages read "):
			setInt(&b.PagesRead, line, "read ")
			setInt(&b.PagesCreated, line, "created ")
			setInt(&b.PagesWritten, line, "written ")
		case strings.Contains(line, " creates/s"):
			setFloatBefore(&b.ReadsPerSec, line, " reads/s")
			setFloatBefore(&b.CreatesPerSec, line, " creates/s")
			setFloatBefore(&b.WritesPerSec, line, " writes/s")
		case strings.HasPrefix(line, "Buffer pool hit rate "):
			if v, ok := intAfter(line, "hit rate "); ok {
				b.HitRate, b.HitRateShown = float64(v)/1000, true
			}
		case strings.HasPrefix(line, "No buffer pool page gets"):
			b.HitRate, b.HitRateShown = -1, false
		}
	}
	if !dirtyPrinted {
		b.DirtyPercent = dirtyShare(b)
	}
}

// dirtyShare is modified pages over LRU plus free pages, the way MariaDB
// computes its printed "Percent of dirty pages".
func dirtyShare(b *snapshot.InnoDBBufferPool) float64 {
	if d := b.DatabasePages + b.FreePages; d > 0 {
		return float64(b.ModifiedPages) / float64(d) * 100
	}
	return 0
}

func parsePendingWrites(b *snapshot.InnoDBBufferPool, line string) {
	setInt(&b.PendingWritesLRU, line, "LRU ")
	setInt(&b.PendingWritesFlushList, line, "flush list ")
	setInt(&b.PendingWritesSinglePage, line, "single page ")
}

func parseReadAhead(b *snapshot.InnoDBBufferPool, line string) {
	if v, ok := floatAfter(line, "Pages read ahead "); ok {
		b.ReadAheadPerSec = v
	}
	if v, ok := floatAfter(line, "evicted without access "); ok {
		b.EvictedPerSec = v
	}
	if v, ok := floatAfter(line, "Random read ahead "); ok {
		b.RandomReadAheadSec = v
	}
}
