package recording

import (
	"strconv"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Meta describes a recording.
type Meta struct {
	// SchemaVersion is the file's format version (PRAGMA user_version).
	SchemaVersion int
	Created       time.Time
	// Server is the last server identity recorded (address, version, flavor).
	Server        snapshot.ServerInfo
	Interval      time.Duration
	MytopVersion  string
	KeyframeEvery int
	Redacted      bool
}

func readMeta(db queryer, version int) (Meta, error) {
	m := Meta{SchemaVersion: version}
	rows, err := db.Query(`SELECT key, value FROM meta`)
	if err != nil {
		return m, trimSQLiteErr(err)
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return m, trimSQLiteErr(err)
		}
		m.set(k, v)
	}
	return m, trimSQLiteErr(rows.Err())
}

// set applies one meta row; unknown keys (from newer writers) are ignored and
// malformed values stay zero, since meta is informational.
func (m *Meta) set(k, v string) {
	switch k {
	case metaCreated:
		m.Created, _ = time.Parse(time.RFC3339, v)
	case metaServerAddress:
		m.Server.Address = v
	case metaServerVersion:
		m.Server.Version = v
	case metaServerFlavor:
		m.Server.Flavor = v
	case metaInterval:
		m.Interval, _ = time.ParseDuration(v)
	case metaVersion:
		m.MytopVersion = v
	case metaKeyframeEvery:
		m.KeyframeEvery, _ = strconv.Atoi(v)
	case metaRedacted:
		m.Redacted, _ = strconv.ParseBool(v)
	}
}

// Gap is a stretch of time the recorder marked as not sampled.
type Gap struct {
	From, To time.Time
	Reason   string
}

// Gaps lists the marked gaps in time order.
func (r *Reader) Gaps() ([]Gap, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.db == nil {
		return nil, errClosed
	}
	rows, err := r.db.Query(`SELECT from_ts, to_ts, reason FROM gaps ORDER BY from_ts`)
	if err != nil {
		return nil, trimSQLiteErr(err)
	}
	defer rows.Close()
	var out []Gap
	for rows.Next() {
		var from, to int64
		var g Gap
		if err := rows.Scan(&from, &to, &g.Reason); err != nil {
			return nil, trimSQLiteErr(err)
		}
		g.From, g.To = fromNanos(from), fromNanos(to)
		out = append(out, g)
	}
	return out, trimSQLiteErr(rows.Err())
}
