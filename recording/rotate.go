package recording

import "database/sql"

// maxRotateSteps bounds the groups dropped after one Write, so a limit that
// shrank a lot is reached over a few ticks instead of stalling one.
const maxRotateSteps = 16

// rotate drops the oldest keyframe groups while the recording is over
// MaxSize or holds frames older than MaxAge. Whole groups go, so the first
// remaining frame is always a keyframe; the newest group is never dropped.
func (w *Writer) rotate() error {
	if w.opts.MaxSize <= 0 && w.opts.MaxAge <= 0 {
		return nil
	}
	for range maxRotateSteps {
		next, err := w.nextKeyframeAfterOldest()
		if err != nil || next < 0 {
			return err
		}
		over, err := w.overLimit(next)
		if err != nil || !over {
			return err
		}
		if err := w.dropBefore(next); err != nil {
			return err
		}
	}
	return nil
}

// nextKeyframeAfterOldest returns the seq of the second keyframe group's
// start, or -1 when only one group exists.
func (w *Writer) nextKeyframeAfterOldest() (int64, error) {
	var next sql.NullInt64
	err := w.db.QueryRow(`SELECT min(seq) FROM frames WHERE keyframe = 1
		AND seq > (SELECT min(seq) FROM frames)`).Scan(&next)
	if err != nil {
		return 0, trimSQLiteErr(err)
	}
	if !next.Valid {
		return -1, nil
	}
	return next.Int64, nil
}

// overLimit reports whether the oldest group (frames before seq next) should go.
func (w *Writer) overLimit(next int64) (bool, error) {
	if w.opts.MaxAge > 0 {
		var ts int64
		if err := w.db.QueryRow(`SELECT ts FROM frames WHERE seq = ?`, next).Scan(&ts); err != nil {
			return false, trimSQLiteErr(err)
		}
		// The whole group is older than MaxAge when its successor is.
		if w.lastTS-ts >= int64(w.opts.MaxAge) {
			return true, nil
		}
	}
	if w.opts.MaxSize > 0 {
		used, err := w.usedBytes()
		return used > w.opts.MaxSize, err
	}
	return false, nil
}

// usedBytes is the size of the pages holding data: freed pages are reused or
// returned by incremental vacuum, so they do not count.
func (w *Writer) usedBytes() (int64, error) {
	var pages, free, size int64
	for _, q := range []struct {
		sql string
		dst *int64
	}{{`PRAGMA page_count`, &pages}, {`PRAGMA freelist_count`, &free}, {`PRAGMA page_size`, &size}} {
		if err := w.db.QueryRow(q.sql).Scan(q.dst); err != nil {
			return 0, trimSQLiteErr(err)
		}
	}
	return (pages - free) * size, nil
}

// dropBefore deletes frames before seq next and what belongs to them, keeping
// the variables in effect at next.
func (w *Writer) dropBefore(next int64) error {
	tx, err := w.db.Begin()
	if err != nil {
		return trimSQLiteErr(err)
	}
	defer tx.Rollback()
	stmts := []string{
		`DELETE FROM frames WHERE seq < ?1`,
		`DELETE FROM series WHERE seq < ?1`,
		`DELETE FROM findings WHERE last_seq < ?1`,
		// An episode that straddles the cut now starts at the first frame kept.
		`UPDATE findings SET frames = max(1, frames - (?1 - first_seq)), first_seq = ?1,
			shown = (SELECT ts FROM frames WHERE seq = ?1) WHERE first_seq < ?1`,
		`DELETE FROM gaps WHERE to_ts < (SELECT ts FROM frames WHERE seq = ?1)`,
		`DELETE FROM variables WHERE seq < (SELECT max(seq) FROM variables WHERE seq <= ?1)`,
	}
	for _, s := range stmts {
		if _, err := tx.Exec(s, next); err != nil {
			return trimSQLiteErr(err)
		}
	}
	if err := tx.Commit(); err != nil {
		return trimSQLiteErr(err)
	}
	_, err = w.db.Exec(`PRAGMA incremental_vacuum`)
	return trimSQLiteErr(err)
}
