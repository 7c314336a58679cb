package recording

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// decodeCache holds the last decoded frame, so the next one decodes against
// it instead of replaying its keyframe group. The two buffers alternate: one
// holds the cached frame (the next dictionary), the other receives the next.
type decodeCache struct {
	valid bool
	pos   int // index position of raw
	raw   []byte
	spare []byte
	// chain is frame pos's thread counters and status, the base of the next
	// frame's (version 3 stores them as differences).
	chain chainState
}

var errNoKeyframe = errors.New("no keyframe before it (delta chain broken)")

// rawFrame returns frame i's serialised snapshot.
func (r *Reader) rawFrame(i int) ([]byte, error) {
	if r.cache.valid && r.cache.pos == i {
		return r.cache.raw, nil
	}
	start := r.keyframeBefore(i)
	if start < 0 {
		return nil, r.frameError(i, errNoKeyframe)
	}
	if r.cache.valid && r.cache.pos >= start && r.cache.pos < i {
		start = r.cache.pos + 1
	} else {
		r.cache.valid = false
	}
	if err := r.decodeRange(start, i); err != nil {
		r.cache.valid = false
		return nil, err
	}
	return r.cache.raw, nil
}

// keyframeBefore returns the position of the last keyframe at or before i,
// or -1.
func (r *Reader) keyframeBefore(i int) int {
	for k := i; k >= 0; k-- {
		if r.index[k].keyframe {
			return k
		}
	}
	return -1
}

// decodeRange decodes frames start..end in order, leaving end in the cache.
// A delta frame at start decodes against the cached frame start-1.
func (r *Reader) decodeRange(start, end int) error {
	rows, err := r.db.Query(`SELECT seq, data FROM frames WHERE seq BETWEEN ? AND ? ORDER BY seq`,
		r.index[start].seq, r.index[end].seq)
	if err != nil {
		return r.frameError(end, trimSQLiteErr(err))
	}
	defer rows.Close()
	pos := start
	for rows.Next() {
		var seq int64
		var data sql.RawBytes
		if err := rows.Scan(&seq, &data); err != nil {
			return r.frameError(end, trimSQLiteErr(err))
		}
		if pos > end || seq != r.index[pos].seq {
			return r.frameError(pos, fmt.Errorf("frame %d missing from the file", r.index[pos].seq))
		}
		if err := r.decodeOne(pos, data); err != nil {
			if pos == end {
				return err
			}
			return r.frameError(end, fmt.Errorf("earlier frame in its group is damaged: %w", err))
		}
		pos++
	}
	if err := rows.Err(); err != nil {
		return r.frameError(end, trimSQLiteErr(err))
	}
	if pos != end+1 {
		return r.frameError(end, errors.New("frame missing from the file (rotated away?)"))
	}
	return nil
}

// decodeOne decodes frame pos into the cache; a delta frame needs frame pos-1
// in the cache.
func (r *Reader) decodeOne(pos int, data []byte) error {
	e := r.index[pos]
	var prev []byte
	if !e.keyframe {
		if !r.cache.valid || r.cache.pos != pos-1 {
			return r.frameError(pos, errNoKeyframe)
		}
		prev = r.cache.raw
	}
	out, err := r.codec.decode(r.cache.spare[:0], data, prev)
	if err != nil {
		r.cache.valid = false
		return r.frameError(pos, err)
	}
	var prevChain chainState
	if !e.keyframe {
		prevChain = r.cache.chain
	}
	chain, err := frameChain(out, prevChain)
	if err != nil {
		r.cache.valid = false
		return r.frameError(pos, err)
	}
	r.cache.spare, r.cache.raw = r.cache.raw, out
	r.cache.pos, r.cache.valid, r.cache.chain = pos, true, chain
	return nil
}

func (r *Reader) frameError(pos int, err error) error {
	e := r.index[pos]
	return &frameError{Seq: e.seq, Time: fromNanos(e.ts), Err: err}
}

// snapshotFrom parses frame i's bytes, the cached frame, and re-attaches its
// variables and its chain (decoded with the frame).
func (r *Reader) snapshotFrom(i int, raw []byte) (*snapshot.Snapshot, error) {
	s, chain, err := parseFrame(raw)
	if err != nil {
		return nil, r.frameError(i, fmt.Errorf("json: %w", err))
	}
	if chain != nil {
		r.cache.chain.apply(s)
	}
	vars, err := r.variablesAt(r.index[i].seq)
	if err != nil {
		return nil, r.frameError(i, err)
	}
	s.Variables = vars
	return s, nil
}

// variablesAt returns the variables stored at or last before frame seq. The
// same map is returned for every frame it applies to, as live snapshots share it.
func (r *Reader) variablesAt(seq int64) (map[string]string, error) {
	n := sort.Search(len(r.vars), func(i int) bool { return r.vars[i].seq > seq })
	if n == 0 {
		return nil, nil
	}
	e := r.vars[n-1]
	if r.varData != nil && r.varMap == e {
		return r.varData, nil
	}
	var data string
	if err := r.db.QueryRow(`SELECT data FROM variables WHERE seq = ?`, e.seq).Scan(&data); err != nil {
		return nil, fmt.Errorf("variables: %w", trimSQLiteErr(err))
	}
	m := map[string]string{}
	if err := json.Unmarshal([]byte(data), &m); err != nil {
		return nil, fmt.Errorf("variables: %w", err)
	}
	r.varMap, r.varData = e, m
	return m, nil
}

// FindingOnset returns when the first finding episode after t (dir > 0), or
// the last one before t (dir < 0), was first shown. That is its first
// recorded frame, not its back-dated onset (Finding.Since), which precedes
// the persistence that raised it.
func (r *Reader) FindingOnset(t time.Time, dir int) (time.Time, bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.db == nil {
		return time.Time{}, false, errClosed
	}
	const episodes = `(SELECT min(shown) AS shown FROM findings GROUP BY id, since)`
	q := `SELECT min(shown) FROM ` + episodes + ` WHERE shown > ?`
	if dir < 0 {
		q = `SELECT max(shown) FROM ` + episodes + ` WHERE shown < ?`
	}
	var shown sql.NullInt64
	if err := r.db.QueryRow(q, t.UnixNano()).Scan(&shown); err != nil {
		return time.Time{}, false, trimSQLiteErr(err)
	}
	if !shown.Valid {
		return time.Time{}, false, nil
	}
	return fromNanos(shown.Int64), true, nil
}
