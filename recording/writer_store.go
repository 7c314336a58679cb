package recording

import (
	"database/sql"
	"encoding/json"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// writerStmts are the statements every Write runs, prepared once.
type writerStmts struct {
	frame, vars, series, meta         *sql.Stmt
	finding, findingSeen, findingPeak *sql.Stmt
}

func prepareWriterStmts(db *sql.DB) (writerStmts, error) {
	var s writerStmts
	seriesSQL := `INSERT INTO series(seq, ts, ` + strings.Join(seriesColumns, ", ") +
		`, findings) VALUES (?, ?` + strings.Repeat(", ?", len(seriesColumns)+1) + `)`
	for _, p := range []struct {
		dst **sql.Stmt
		sql string
	}{
		{&s.frame, `INSERT INTO frames(seq, ts, keyframe, raw_size, data) VALUES (?, ?, ?, ?, ?)`},
		{&s.vars, `INSERT INTO variables(seq, ts, data) VALUES (?, ?, ?)`},
		{&s.series, seriesSQL},
		{&s.finding, `INSERT INTO findings(id, since, shown, last_ts, first_seq, last_seq,
			frames, severity, title, evidence, advice) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)`},
		{&s.findingSeen, `UPDATE findings SET last_ts = ?, last_seq = ?, frames = frames + 1
			WHERE rowid = ?`},
		{&s.findingPeak, `UPDATE findings SET last_ts = ?, last_seq = ?, frames = frames + 1,
			severity = ?, title = ?, evidence = ?, advice = ? WHERE rowid = ?`},
		{&s.meta, `INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)`},
	} {
		stmt, err := db.Prepare(p.sql)
		if err != nil {
			s.close()
			return s, trimSQLiteErr(err)
		}
		*p.dst = stmt
	}
	return s, nil
}

func (s writerStmts) close() {
	for _, st := range []*sql.Stmt{s.frame, s.vars, s.series, s.meta, s.finding, s.findingSeen, s.findingPeak} {
		if st != nil {
			st.Close()
		}
	}
}

// store writes rec and what belongs with it in one transaction. f holds the
// (possibly redacted) snapshot and findings.
func (w *Writer) store(rec frameRecord, f *snapshot.Frame) error {
	tx, err := w.db.Begin()
	if err != nil {
		return trimSQLiteErr(err)
	}
	defer tx.Rollback()
	steps := []func(*sql.Tx) error{
		func(tx *sql.Tx) error {
			_, err := tx.Stmt(w.stmts.frame).Exec(rec.seq, rec.ts, rec.keyframe, len(rec.raw), rec.data)
			return err
		},
		func(tx *sql.Tx) error { return w.storeVariables(tx, rec, f.Snapshot) },
		func(tx *sql.Tx) error { return w.storeSeries(tx, rec, f) },
		func(tx *sql.Tx) error { return w.storeFindings(tx, rec, f.Findings) },
		func(tx *sql.Tx) error { return w.storeServer(tx, f.Snapshot.Server) },
	}
	for _, step := range steps {
		if err := step(tx); err != nil {
			return trimSQLiteErr(err)
		}
	}
	if err := tx.Commit(); err != nil {
		return trimSQLiteErr(err)
	}
	w.server = serverKey(f.Snapshot.Server)
	w.episodes = w.pendingEpisodes
	return nil
}

// storeVariables keeps the variables when they changed, and once at the start
// of each writing session so a reader always finds the ones in effect.
func (w *Writer) storeVariables(tx *sql.Tx, rec frameRecord, s *snapshot.Snapshot) error {
	if s.Variables == nil || (w.wroteFirst && !s.VariablesChanged) {
		return nil
	}
	data, err := json.Marshal(s.Variables)
	if err != nil {
		return err
	}
	_, err = tx.Stmt(w.stmts.vars).Exec(rec.seq, rec.ts, string(data))
	return err
}

func (w *Writer) storeSeries(tx *sql.Tx, rec frameRecord, f *snapshot.Frame) error {
	args := append([]any{rec.seq, rec.ts}, seriesRow(f)...)
	args = append(args, len(f.Findings))
	_, err := tx.Stmt(w.stmts.series).Exec(args...)
	return err
}

// storeServer records the server's identity in meta from the session's first
// frame, and again whenever it changes (an upgrade, a failover).
func (w *Writer) storeServer(tx *sql.Tx, si snapshot.ServerInfo) error {
	if serverKey(si) == w.server {
		return nil
	}
	stmt := tx.Stmt(w.stmts.meta)
	for k, v := range map[string]string{
		metaServerAddress: si.Address, metaServerVersion: si.Version, metaServerFlavor: si.Flavor,
	} {
		if v == "" {
			continue
		}
		if _, err := stmt.Exec(k, v); err != nil {
			return err
		}
	}
	return nil
}

// serverKey is what meta records of a server's identity.
func serverKey(si snapshot.ServerInfo) [3]string {
	return [3]string{si.Address, si.Version, si.Flavor}
}
