package recording

import (
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Reader reads a recording, possibly while a recorder is still appending to
// it (see Refresh). Its methods are safe for concurrent use.
type Reader struct {
	mu      sync.Mutex
	path    string
	db      *sql.DB
	version int
	meta    Meta
	index   []frameEntry
	vars    []varsEntry
	codec   *frameCodec
	cache   decodeCache
	varMap  varsEntry // last variables decoded
	varData map[string]string
}

// frameEntry is one frame's place in the file, kept in memory for seeking.
type frameEntry struct {
	seq, ts  int64
	keyframe bool
}

// varsEntry locates a stored variables set, in effect from frame seq on.
type varsEntry struct{ seq int64 }

// frameError reports a frame that cannot be decoded. Readers skip such frames.
type frameError struct {
	Seq  int64
	Time time.Time
	Err  error
}

func (e *frameError) Error() string {
	return fmt.Sprintf("frame %d at %s is damaged: %v", e.Seq, e.Time.UTC().Format(time.RFC3339), e.Err)
}

func (e *frameError) Unwrap() error { return e.Err }

// Open opens the recording at path for reading.
func Open(path string) (*Reader, error) {
	if err := checkMagic(path); err != nil {
		return nil, err
	}
	db, err := openReadDB(path)
	if err != nil {
		return nil, err
	}
	r := &Reader{path: path, db: db}
	if err := r.load(); err != nil {
		db.Close()
		return nil, err
	}
	return r, nil
}

// openReadDB opens read-write when it can, because replaying a write-ahead
// log left by a killed recorder needs write access; read-only otherwise.
func openReadDB(path string) (*sql.DB, error) {
	var firstErr error
	for _, mode := range []string{"rw", "ro"} {
		name, err := dsn(path, mode)
		if err != nil {
			return nil, err
		}
		db, err := sql.Open("sqlite", name)
		if err == nil {
			db.SetMaxOpenConns(1)
			if err = db.Ping(); err == nil {
				return db, nil
			}
			db.Close()
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, fmt.Errorf("%s: %w", path, trimSQLiteErr(firstErr))
}

func (r *Reader) load() error {
	var err error
	if r.version, err = checkSchema(r.db, r.path); err != nil {
		return err
	}
	if r.meta, err = readMeta(r.db, r.version); err != nil {
		return fmt.Errorf("%s: %w", r.path, err)
	}
	if err := r.loadIndex(-1); err != nil {
		return fmt.Errorf("%s: %w", r.path, err)
	}
	if err := r.loadVars(-1); err != nil {
		return fmt.Errorf("%s: %w", r.path, err)
	}
	r.codec, err = newFrameCodec()
	return err
}

// loadIndex appends the frames after seq `after` to the index. The first
// load reads the covering ts index (a few MB for a day) rather than the frame
// pages; later ones read the few new rows by seq.
func (r *Reader) loadIndex(after int64) error {
	q := `SELECT seq, ts, keyframe FROM frames WHERE seq > ? ORDER BY seq`
	if after < 0 {
		q = `SELECT seq, ts, keyframe FROM frames INDEXED BY frames_ts WHERE seq > ?`
	}
	rows, err := r.db.Query(q, after)
	if err != nil {
		return trimSQLiteErr(err)
	}
	defer rows.Close()
	n := len(r.index)
	for rows.Next() {
		var e frameEntry
		if err := rows.Scan(&e.seq, &e.ts, &e.keyframe); err != nil {
			return trimSQLiteErr(err)
		}
		r.index = append(r.index, e)
	}
	added := r.index[n:]
	sort.Slice(added, func(i, j int) bool { return added[i].seq < added[j].seq })
	return trimSQLiteErr(rows.Err())
}

func (r *Reader) loadVars(after int64) error {
	rows, err := r.db.Query(`SELECT seq FROM variables WHERE seq > ? ORDER BY seq`, after)
	if err != nil {
		return trimSQLiteErr(err)
	}
	defer rows.Close()
	for rows.Next() {
		var e varsEntry
		if err := rows.Scan(&e.seq); err != nil {
			return trimSQLiteErr(err)
		}
		r.vars = append(r.vars, e)
	}
	return trimSQLiteErr(rows.Err())
}

// Path is the file being read.
func (r *Reader) Path() string { return r.path }

// Meta describes the recording.
func (r *Reader) Meta() Meta {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.meta
}

// Len is the number of frames.
func (r *Reader) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.index)
}

// TimeRange returns the first and last frame's times; zero times when empty.
func (r *Reader) TimeRange() (first, last time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.index) == 0 {
		return time.Time{}, time.Time{}
	}
	return fromNanos(r.index[0].ts), fromNanos(r.index[len(r.index)-1].ts)
}

// Time returns frame i's time.
func (r *Reader) Time(i int) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	if i < 0 || i >= len(r.index) {
		return time.Time{}
	}
	return fromNanos(r.index[i].ts)
}

// Seek returns the index of the last frame at or before t (0 when t is before
// the first frame), or -1 when the recording is empty.
func (r *Reader) Seek(t time.Time) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seek(t.UnixNano())
}

func (r *Reader) seek(ts int64) int {
	if len(r.index) == 0 {
		return -1
	}
	i := sort.Search(len(r.index), func(i int) bool { return r.index[i].ts > ts })
	return max(i-1, 0)
}

// Refresh picks up frames appended (or rotated away) by a concurrent writer
// and returns how many frames were added.
func (r *Reader) Refresh() (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.dropRotated(); err != nil {
		return 0, err
	}
	before := len(r.index)
	last, lastVars := int64(-1), int64(-1)
	if before > 0 {
		last = r.index[before-1].seq
	}
	if n := len(r.vars); n > 0 {
		lastVars = r.vars[n-1].seq
	}
	if err := r.loadIndex(last); err != nil {
		return 0, err
	}
	if err := r.loadVars(lastVars); err != nil {
		return len(r.index) - before, err
	}
	return len(r.index) - before, nil
}

// dropRotated forgets frames a rotating writer deleted.
func (r *Reader) dropRotated() error {
	var first sql.NullInt64
	if err := r.db.QueryRow(`SELECT min(seq) FROM frames`).Scan(&first); err != nil {
		return trimSQLiteErr(err)
	}
	if !first.Valid || len(r.index) == 0 || r.index[0].seq >= first.Int64 {
		return nil
	}
	n := sort.Search(len(r.index), func(i int) bool { return r.index[i].seq >= first.Int64 })
	r.index = append(r.index[:0:0], r.index[n:]...)
	r.cache = decodeCache{}
	return nil
}

// Close releases the file.
func (r *Reader) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.db == nil {
		return nil
	}
	if r.codec != nil {
		r.codec.close()
	}
	err := r.db.Close()
	r.db = nil
	return err
}

func fromNanos(ns int64) time.Time { return time.Unix(0, ns).UTC() }

var errClosed = errors.New("recording: reader closed")

// Snapshot returns frame i with the variables in effect at that time. Frame
// i is decoded from the nearest keyframe, or from the last frame decoded when
// that is on the way, so stepping forward costs one decode.
func (r *Reader) Snapshot(i int) (*snapshot.Snapshot, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.db == nil {
		return nil, errClosed
	}
	if i < 0 || i >= len(r.index) {
		return nil, fmt.Errorf("recording: frame %d out of range (0..%d)", i, len(r.index)-1)
	}
	raw, err := r.rawFrame(i)
	if err != nil {
		return nil, err
	}
	return r.snapshotFrom(i, raw)
}
