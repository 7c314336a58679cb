package recording

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// defaultKeyframeEvery is how often a self-contained frame is written, so a
// seek decodes at most this many frames. On a busy server a keyframe is
// ~8.6 KB against ~600 B for a delta frame (format 2): every 240 frames
// instead of 120 saves 36 B a frame, 5 % of the file, and a delta frame
// decodes in ~35 us, so the longest seek grows by ~4 ms. Rotation and a
// damaged frame lose up to one group, four minutes at 1 s.
const defaultKeyframeEvery = 240

// WriterOptions tune a Writer. The zero value is usable.
type WriterOptions struct {
	// Append continues an existing recording instead of refusing to touch it.
	Append bool
	// KeyframeEvery is the keyframe spacing in frames (default 240).
	KeyframeEvery int
	// Redact replaces literals in query text with "?" before anything is
	// written (snapshot.Redact).
	Redact bool
	// MaxSize and MaxAge bound the recording; when exceeded, the oldest frames
	// are dropped a keyframe group at a time. Zero means no limit.
	MaxSize int64
	MaxAge  time.Duration
	// Interval and Version are written to meta for the reader's information.
	Interval time.Duration
	Version  string
}

// Writer appends frames to a recording file. It is not safe for concurrent
// use; one goroutine (the recorder) owns it.
type Writer struct {
	path  string
	db    *sql.DB
	opts  WriterOptions
	codec *frameCodec
	form  frameForm
	stmts writerStmts

	prev       []byte // previous frame's serialised bytes: the next dictionary
	nextSeq    int64
	sinceKey   int
	buf        []byte // compressed-frame buffer, reused
	wroteFirst bool   // this session stored its first frame (variables, server meta)
	lastTS     int64
	server     [3]string // identity last written to meta
	// episodes maps finding ids to the row of their latest episode;
	// pendingEpisodes replaces it when the frame's transaction commits.
	episodes, pendingEpisodes map[string]episodeMark
	size                      atomic.Int64
}

// Create opens a new recording at path, created with mode 0600. An existing
// file is refused unless opts.Append, in which case frames are added to it.
func Create(path string, opts WriterOptions) (*Writer, error) {
	if opts.KeyframeEvery <= 0 {
		opts.KeyframeEvery = defaultKeyframeEvery
	}
	fresh, err := createFile(path, opts.Append)
	if err != nil {
		return nil, err
	}
	w, err := openWriter(path, opts, fresh)
	if err != nil && fresh {
		for _, p := range []string{path, path + "-wal", path + "-shm"} {
			os.Remove(p)
		}
	}
	return w, err
}

// createFile creates path with mode 0600 and reports whether it is new.
func createFile(path string, appendOK bool) (bool, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		return true, f.Close()
	}
	if !errors.Is(err, os.ErrExist) {
		return false, err
	}
	if !appendOK {
		return false, fmt.Errorf("%s already exists; choose another name or append to it", path)
	}
	if err := checkMagic(path); err != nil {
		return false, err
	}
	return false, nil
}

// writerCacheKiB bounds SQLite's page cache for the writer, which only
// appends and needs little beyond the B-tree's upper pages. SQLite's default
// (2 MiB) lives outside the Go heap and fills as slowly as the file grows, so
// a recorder's RSS rose ~3 MB over its first hours before levelling off; 256
// KiB reaches its ceiling within minutes and writes as fast (BenchmarkWrite
// 0.40 ms against 0.44 ms a frame).
const writerCacheKiB = 256

func openWriter(path string, opts WriterOptions, fresh bool) (*Writer, error) {
	// NORMAL: in WAL mode a commit survives the process being killed, and
	// only a power cut can lose the last frames.
	name, err := dsn(path, "rw", "synchronous(NORMAL)", fmt.Sprintf("cache_size(%d)", -writerCacheKiB))
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", name)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	w := &Writer{path: path, db: db, opts: opts}
	if err := w.init(fresh); err != nil {
		db.Close()
		return nil, err
	}
	w.measureSize()
	return w, nil
}

func (w *Writer) init(fresh bool) error {
	if err := w.setFileMode(fresh); err != nil {
		return err
	}
	var err error
	if fresh {
		err = w.createSchema()
	} else {
		err = w.resume()
	}
	if err != nil {
		return err
	}
	if w.stmts, err = prepareWriterStmts(w.db); err != nil {
		return err
	}
	w.codec, err = newFrameCodec()
	return err
}

// pageSize suits rows of a few kilobytes (a delta frame): several share a
// page. A page ends with the room the next frame did not fit in, and on a
// busy server a frame of 2-4 KB every 5 s (InnoDB status and digests
// refreshed) makes that about 900 B a page: 11 % of the frames table with
// 8 KiB pages, 5.6 % with 16 KiB (simulated on a 100-connection recording's
// frame sizes; 32 KiB: 3.7 %). Larger pages cost more write-ahead log
// traffic per frame (each commit writes ~4 whole pages) and write time
// (BenchmarkWrite 0.68 -> 0.85 ms a frame from 8 to 16 KiB).
const pageSize = 16384

// walCheckpointPages keeps the write-ahead log at about 8 MiB between
// checkpoints, as SQLite's default of 1,000 pages did with 8 KiB pages.
const walCheckpointPages = 8 << 20 / pageSize

// setFileMode sets the persistent file settings, in the order SQLite needs:
// page size and auto-vacuum only take effect on an empty file, before WAL.
func (w *Writer) setFileMode(fresh bool) error {
	pragmas := []string{`PRAGMA journal_mode = WAL`, fmt.Sprintf(`PRAGMA wal_autocheckpoint = %d`, walCheckpointPages)}
	if fresh {
		pragmas = append([]string{fmt.Sprintf(`PRAGMA page_size = %d`, pageSize),
			`PRAGMA auto_vacuum = INCREMENTAL`}, pragmas...)
	}
	for _, p := range pragmas {
		if _, err := w.db.Exec(p); err != nil {
			return fmt.Errorf("%s: %w", w.path, trimSQLiteErr(err))
		}
	}
	return nil
}

func (w *Writer) createSchema() error {
	tx, err := w.db.Begin()
	if err != nil {
		return trimSQLiteErr(err)
	}
	defer tx.Rollback()
	for _, stmt := range schemaV1 {
		if _, err := tx.Exec(stmt); err != nil {
			return trimSQLiteErr(err)
		}
	}
	meta := map[string]string{
		metaFormat:        formatName,
		metaCreated:       time.Now().UTC().Format(time.RFC3339),
		metaInterval:      w.opts.Interval.String(),
		metaVersion:       w.opts.Version,
		metaKeyframeEvery: strconv.Itoa(w.opts.KeyframeEvery),
		metaRedacted:      strconv.FormatBool(w.opts.Redact),
	}
	for k, v := range meta {
		if _, err := tx.Exec(`INSERT INTO meta(key, value) VALUES (?, ?)`, k, v); err != nil {
			return trimSQLiteErr(err)
		}
	}
	if _, err := tx.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, schemaVersion)); err != nil {
		return trimSQLiteErr(err)
	}
	return trimSQLiteErr(tx.Commit())
}

// resume prepares to append to an existing recording: its first new frame is
// a keyframe, so nothing of the old tail needs decoding.
func (w *Writer) resume() error {
	if _, err := checkSchema(w.db, w.path); err != nil {
		return err
	}
	var last sql.NullInt64
	if err := w.db.QueryRow(`SELECT max(seq) FROM frames`).Scan(&last); err != nil {
		return trimSQLiteErr(err)
	}
	if last.Valid {
		w.nextSeq = last.Int64 + 1
	}
	if err := w.loadEpisodes(); err != nil {
		return err
	}
	// Frames appended now are in this version's form; a reader too old for
	// them must refuse the file rather than misread them.
	if _, err := w.db.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, schemaVersion)); err != nil {
		return trimSQLiteErr(err)
	}
	if !w.opts.Redact {
		// "redacted" promises that no frame holds literals: one session
		// without redaction breaks it for the whole file.
		_, err := w.db.Exec(`INSERT OR REPLACE INTO meta(key, value) VALUES (?, 'false')`, metaRedacted)
		return trimSQLiteErr(err)
	}
	return nil
}

// Path is the file being written.
func (w *Writer) Path() string { return w.path }

// Size is the recording's size in bytes as it will be on disk once the
// write-ahead log is folded in, as of the last Write. Unlike the other
// methods it may be called from any goroutine (the dashboard's header).
func (w *Writer) Size() int64 { return w.size.Load() }

// measureSize updates Size from the page count.
func (w *Writer) measureSize() {
	var pages, size int64
	if w.db.QueryRow(`PRAGMA page_count`).Scan(&pages) == nil && w.db.QueryRow(`PRAGMA page_size`).Scan(&size) == nil {
		w.size.Store(pages * size)
	}
}

// Write stores one frame: its Snapshot, its key figures and its findings, in
// one transaction, so a killed recorder loses at most the frame in flight.
func (w *Writer) Write(f *snapshot.Frame) error {
	if w.db == nil {
		return errors.New("recording: write after close")
	}
	if f == nil || f.Snapshot == nil {
		return errors.New("recording: frame without a snapshot")
	}
	s, findings := f.Snapshot, f.Findings
	if w.opts.Redact {
		findings = redactedFindings(findings, s)
		s = redacted(s)
	}
	key := w.prev == nil || w.sinceKey >= w.opts.KeyframeEvery
	raw, err := w.form.encode(s, key)
	if err != nil {
		w.form.forget()
		return fmt.Errorf("recording: encode frame at %s: %w", s.Time.Format(time.RFC3339), err)
	}
	var dict []byte
	if !key {
		dict = w.prev
	}
	data, err := w.codec.encode(w.buf[:0], raw, dict)
	if err != nil {
		w.form.forget()
		return err
	}
	rec := frameRecord{seq: w.nextSeq, ts: unixNanos(s.Time), keyframe: key, raw: raw, data: data}
	view := *f
	view.Snapshot, view.Findings = s, findings
	if err := w.store(rec, &view); err != nil {
		w.form.forget()
		return err
	}
	w.advance(rec)
	err = w.rotate()
	w.measureSize()
	return err
}

// frameRecord is one row of the frames table.
type frameRecord struct {
	seq, ts  int64
	keyframe bool
	raw      []byte // serialised snapshot
	data     []byte // compressed
}

func (w *Writer) advance(rec frameRecord) {
	w.buf, w.prev = rec.data, rec.raw
	w.nextSeq = rec.seq + 1
	w.lastTS = rec.ts
	w.wroteFirst = true
	if rec.keyframe {
		w.sinceKey = 1
	} else {
		w.sinceKey++
	}
}

// unixNanos is t in Unix nanoseconds; the zero time is 0.
func unixNanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// MarkGap records that nothing was sampled between from and to, and why
// (e.g. "server unreachable", "recorder paused").
func (w *Writer) MarkGap(from, to time.Time, reason string) error {
	if w.db == nil {
		return errors.New("recording: write after close")
	}
	_, err := w.db.Exec(`INSERT INTO gaps(from_ts, to_ts, reason) VALUES (?, ?, ?)`,
		unixNanos(from), unixNanos(to), reason)
	return trimSQLiteErr(err)
}

// Close flushes the write-ahead log into the file, so the file alone is a
// complete recording that can be copied or mailed, and closes it. A
// concurrent reader (replay --follow) is not waited for: the log then stays
// until the last reader closes.
func (w *Writer) Close() error {
	if w.db == nil {
		return nil
	}
	w.stmts.close()
	w.codec.close()
	for _, p := range []string{
		`PRAGMA busy_timeout = 0`,
		`PRAGMA wal_checkpoint(TRUNCATE)`,
		// Leaving WAL mode makes the file readable without its -wal/-shm
		// companions (read-only media, old sqlite3).
		`PRAGMA journal_mode = DELETE`,
	} {
		w.db.Exec(p) // best effort: a reader holding the log makes these fail
	}
	err := w.db.Close()
	w.db = nil
	return trimSQLiteErr(err)
}
