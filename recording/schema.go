package recording

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// schemaVersion is the format version this build writes, kept in PRAGMA
// user_version. Readers accept every version from 1 up to it. Version 2
// stores the processlist in column form (form_processlist.go); its tables are
// version 1's, and a version 1 file appended to becomes version 2. Version 3
// stores the per-thread counters in column form, as differences from the
// previous frame (form_threads.go); same tables again. Version 4 may store
// the InnoDB status as its text alone, parsed again on reading
// (form_innodb.go); same tables.
const schemaVersion = 4

// formatName is meta's "format" value; it tells a recording from any other
// SQLite file.
const formatName = "mytop-go recording"

// schemaV1 creates an empty recording. Times are Unix nanoseconds (UTC).
var schemaV1 = []string{
	`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
	`CREATE TABLE frames (
		seq INTEGER PRIMARY KEY,
		ts INTEGER NOT NULL,
		keyframe INTEGER NOT NULL,
		raw_size INTEGER NOT NULL,
		data BLOB NOT NULL)`,
	// Covers the reader's index load (seq is the rowid), which then never
	// touches the frame data pages.
	`CREATE INDEX frames_ts ON frames(ts, keyframe)`,
	`CREATE TABLE variables (seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, data TEXT NOT NULL)`,
	`CREATE TABLE series (
		seq INTEGER PRIMARY KEY,
		ts INTEGER NOT NULL,
		qps REAL,
		threads_running INTEGER,
		threads_connected INTEGER,
		active_queries INTEGER,
		longest_query_s REAL,
		bp_miss_pct REAL,
		row_lock_waits INTEGER,
		history_list_length INTEGER,
		checkpoint_age_pct REAL,
		slow_queries_ps REAL,
		tmp_disk_tables_ps REAL,
		cpu_busy_pct REAL,
		cpu_iowait_pct REAL,
		run_queue INTEGER,
		blocked INTEGER,
		swap_in_ps REAL,
		swap_out_ps REAL,
		disk_util_max REAL,
		disk_await_max_ms REAL,
		findings INTEGER NOT NULL)`,
	// One row per finding episode, extended in place while it lasts.
	`CREATE TABLE findings (
		id TEXT NOT NULL,
		since INTEGER NOT NULL,
		shown INTEGER NOT NULL,
		last_ts INTEGER NOT NULL,
		first_seq INTEGER NOT NULL,
		last_seq INTEGER NOT NULL,
		frames INTEGER NOT NULL,
		severity TEXT NOT NULL,
		title TEXT NOT NULL,
		evidence TEXT NOT NULL,
		advice TEXT NOT NULL)`,
	`CREATE TABLE gaps (from_ts INTEGER NOT NULL, to_ts INTEGER NOT NULL, reason TEXT NOT NULL)`,
}

// Meta keys.
const (
	metaFormat        = "format"
	metaCreated       = "created"
	metaServerAddress = "server_address"
	metaServerVersion = "server_version"
	metaServerFlavor  = "server_flavor"
	metaInterval      = "interval"
	metaVersion       = "mytop_go_version"
	metaKeyframeEvery = "keyframe_every"
	metaRedacted      = "redacted"
)

// sqliteMagic starts every SQLite 3 database file.
const sqliteMagic = "SQLite format 3\x00"

// dsn builds a SQLite URI for path. mode is "rw" or "ro"; "rw" never creates
// the file (callers create it themselves, with the right permissions).
func dsn(path, mode string, pragmas ...string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	q := url.Values{"mode": {mode}}
	q["_pragma"] = append([]string{"busy_timeout(5000)"}, pragmas...)
	u := url.URL{Scheme: "file", OmitHost: true, Path: filepath.ToSlash(abs), RawQuery: q.Encode()}
	return u.String(), nil
}

// errNotRecording is wrapped by every "not a recording" error.
var errNotRecording = errors.New("not a mytop-go recording")

func notRecording(path string) error {
	return fmt.Errorf("%s is %w", path, errNotRecording)
}

// checkMagic rejects files that are not SQLite databases before SQLite sees
// them, so the error is the one-line "x is not a mytop-go recording".
func checkMagic(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.IsDir() {
		return notRecording(path)
	}
	buf := make([]byte, len(sqliteMagic))
	if _, err := f.ReadAt(buf, 0); err != nil || string(buf) != sqliteMagic {
		return notRecording(path)
	}
	return nil
}

// checkSchema verifies db is a recording this build can read and returns its
// schema version.
func checkSchema(db *sql.DB, path string) (int, error) {
	var version int
	if err := db.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil {
		return 0, fmt.Errorf("%s: %w", path, trimSQLiteErr(err))
	}
	var format string
	err := db.QueryRow(`SELECT value FROM meta WHERE key = ?`, metaFormat).Scan(&format)
	if err != nil || format != formatName || version < 1 {
		return 0, notRecording(path)
	}
	if version > schemaVersion {
		return 0, fmt.Errorf("%s was written by a newer mytop-go (format %d; this build reads up to %d)",
			path, version, schemaVersion)
	}
	return version, nil
}

// trimSQLiteErr keeps SQLite's messages on one line.
func trimSQLiteErr(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		return errors.New(msg[:i])
	}
	return err
}

// queryer is what read helpers need of *sql.DB or *sql.Tx.
type queryer interface {
	Query(query string, args ...any) (*sql.Rows, error)
	QueryRow(query string, args ...any) *sql.Row
}
