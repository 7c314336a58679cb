package parse

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// parseFileIO reads the FILE I/O section. Pending reads and writes add up every
// place the server reports them: the aio queues (a count, a bracketed list
// per thread in 8.0, or both), ibuf aio reads, MariaDB's "N pending reads,
// N pending writes" and the synchronous "pending preads/pwrites".
func parseFileIO(f *snapshot.InnoDBFileIO, body string) {
	f.Present = true
	for line := range lines(body) {
		switch {
		case strings.HasPrefix(line, "Pending normal aio reads:"):
			reads, writes, _ := strings.Cut(line, "aio writes:")
			f.PendingReads += pendingCount(strings.TrimPrefix(reads, "Pending normal aio reads:"))
			f.PendingWrites += pendingCount(writes)
		case strings.Contains(line, "ibuf aio reads:"):
			if v, ok := intAfter(line, "ibuf aio reads:"); ok {
				f.PendingReads += v
			}
		case strings.HasPrefix(line, "Pending flushes (fsync)"):
			f.PendingFsyncs = fsyncCount(line)
		case strings.Contains(line, " OS file reads, "):
			if v, ok := leadingInt(line); ok {
				f.OSFileReads = v
			}
			setInt(&f.OSFileWrites, line, "reads, ")
			setInt(&f.OSFsyncs, line, "writes, ")
		case strings.Contains(line, " pending preads, "), strings.Contains(line, " pending reads, "):
			if v, ok := leadingInt(line); ok {
				f.PendingReads += v
			}
			if v, ok := intAfter(line, ", "); ok {
				f.PendingWrites += v
			}
		case strings.Contains(line, " avg bytes/read"):
			setFloatBefore(&f.ReadsPerSec, line, " reads/s")
			setFloatBefore(&f.WritesPerSec, line, " writes/s")
			setFloatBefore(&f.FsyncsPerSec, line, " fsyncs/s")
		}
	}
}

// pendingCount reads " 0 [0, 0, 0, 0] ," (5.6/5.7: the total comes first),
// " [0, 1, 0, 0] ," (8.0: only the per-thread list) or " 6," (older).
func pendingCount(s string) int64 {
	if v, ok := leadingInt(s); ok {
		return v
	}
	open := strings.IndexByte(s, '[')
	end := strings.IndexByte(s, ']')
	if open < 0 || end < open {
		return 0
	}
	var sum int64
	for part := range strings.SplitSeq(s[open+1:end], ",") {
		if v, ok := leadingInt(part); ok {
			sum += v
		}
	}
	return sum
}

// fsyncCount reads "Pending flushes (fsync) log: N; buffer pool: M" (summed)
// or MariaDB's single "Pending flushes (fsync): N".
func fsyncCount(line string) int64 {
	var n int64
	if v, ok := intAfter(line, "log: "); ok {
		n += v
	}
	if v, ok := intAfter(line, "buffer pool: "); ok {
		n += v
	}
	if v, ok := intAfter(line, "(fsync): "); ok {
		n += v
	}
	return n
}
