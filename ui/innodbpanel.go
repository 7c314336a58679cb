package ui

import (
	"fmt"

	"github.com/mytop-go/mytop-go/snapshot"
)

// innodbLines is the InnoDB panel: buffer pool fill, redo pressure, admission
// queue, purge lag, transactions and waits.
func innodbLines(f *snapshot.Frame) []string {
	s := f.Snapshot
	in := s.InnoDB
	lines := []string{bufferPoolLine(s)}
	if in == nil {
		return append(lines, naLine(s, snapshot.CollectorInnoDB, "no SHOW ENGINE INNODB STATUS in this source"))
	}
	lines = append(lines, checkpointLine(in.Log))
	if in.Rows.QueueShown {
		lines = append(lines, fmt.Sprintf("queue %d inside %d  read views %d",
			in.Rows.QueriesInQueue, in.Rows.QueriesInside, in.Rows.ReadViewsOpen))
	}
	t := in.Transactions
	if t.Present {
		lines = append(lines, fmt.Sprintf("HLL %s  trx %d act %d oldest %s",
			commas(t.HistoryListLength), t.Count, t.Active, age(secs(t.OldestActiveSeconds))))
		lines = append(lines, fmt.Sprintf("lock waits %d  row waits now %s", t.LockWaits, statusOr(s, "Innodb_row_lock_current_waits")))
	}
	if io := in.FileIO; io.Present {
		lines = append(lines, fmt.Sprintf("pending I/O r %d w %d fsync %d", io.PendingReads, io.PendingWrites, io.PendingFsyncs))
	}
	if sem := in.Semaphores; sem.Present {
		lines = append(lines, fmt.Sprintf("semaphore waits %d longest %.0fs", sem.Waits, sem.LongestWaitSeconds))
	}
	return lines
}

// bufferPoolLine prefers status variables (exact, every sample) over the
// InnoDB status text.
func bufferPoolLine(s *snapshot.Snapshot) string {
	total, ok1 := s.StatusFloat("Innodb_buffer_pool_pages_total")
	free, ok2 := s.StatusFloat("Innodb_buffer_pool_pages_free")
	dirty, ok3 := s.StatusFloat("Innodb_buffer_pool_pages_dirty")
	if !(ok1 && ok2 && ok3) && s.InnoDB != nil && s.InnoDB.BufferPool.Present {
		bp := s.InnoDB.BufferPool
		total, free, dirty = float64(bp.SizePages), float64(bp.FreePages), float64(bp.ModifiedPages)
		ok1 = true
	}
	if !ok1 || total <= 0 {
		return "[gray]BP n/a[-]"
	}
	page := 16384.0
	if ps, ok := s.StatusFloat("Innodb_page_size"); ok && ps > 0 {
		page = ps
	}
	return fmt.Sprintf("BP %s free %s dirty %s", bytesShort(total*page), pct(free/total*100), pct(dirty/total*100))
}

func checkpointLine(l snapshot.InnoDBLog) string {
	switch {
	case !l.Present:
		return "[gray]ckpt age n/a[-]"
	case l.CheckpointAgePercent > 0:
		return fmt.Sprintf("ckpt age %s (%s of log)", bytesShort(float64(l.CheckpointAge)), pct(l.CheckpointAgePercent))
	default:
		return fmt.Sprintf("ckpt age %s (log size unknown)", bytesShort(float64(l.CheckpointAge)))
	}
}

func statusOr(s *snapshot.Snapshot, name string) string {
	if v, ok := s.StatusInt(name); ok {
		return commas(v)
	}
	return "n/a"
}
