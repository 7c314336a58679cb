package recording

import (
	"database/sql"
	"encoding/json"
	"maps"

	"github.com/mytop-go/mytop-go/snapshot"
)

// episodeMark is the findings row that holds a finding's latest episode.
type episodeMark struct {
	rowid    int64
	since    int64
	severity snapshot.Severity // peak so far
}

// storeFindings keeps one row per finding episode: the first frame that
// carries it inserts the row, later frames extend it in place, and a frame
// that raises its severity above the peak replaces title, evidence and advice.
// One row per finding per frame made findings the largest table after frames.
func (w *Writer) storeFindings(tx *sql.Tx, rec frameRecord, fs []snapshot.Finding) error {
	episodes := maps.Clone(w.episodes)
	if episodes == nil {
		episodes = make(map[string]episodeMark, len(fs))
	}
	for _, f := range fs {
		since := unixNanos(f.Since)
		if since == 0 {
			since = rec.ts
		}
		mark, err := w.storeFinding(tx, rec, f, since, episodes)
		if err != nil {
			return err
		}
		episodes[f.ID] = mark
	}
	w.pendingEpisodes = episodes
	return nil
}

// storeFinding extends f's episode when its row is still there (rotation may
// have dropped it), else starts a new row.
func (w *Writer) storeFinding(tx *sql.Tx, rec frameRecord, f snapshot.Finding, since int64,
	episodes map[string]episodeMark) (episodeMark, error) {
	last, ok := episodes[f.ID]
	if ok && last.since == since {
		peak := f.Severity > last.severity
		n, err := w.extendEpisode(tx, rec, f, last.rowid, peak)
		if err != nil || n == 1 {
			last.severity = max(last.severity, f.Severity)
			return last, err
		}
	}
	evidence, err := json.Marshal(f.Evidence)
	if err != nil {
		return episodeMark{}, err
	}
	res, err := tx.Stmt(w.stmts.finding).Exec(f.ID, since, rec.ts, rec.ts, rec.seq, rec.seq,
		f.Severity.String(), f.Title, string(evidence), f.Advice)
	if err != nil {
		return episodeMark{}, err
	}
	rowid, err := res.LastInsertId()
	return episodeMark{rowid: rowid, since: since, severity: f.Severity}, err
}

// extendEpisode adds rec to the episode in row rowid and returns the rows
// changed (0 when the row is gone).
func (w *Writer) extendEpisode(tx *sql.Tx, rec frameRecord, f snapshot.Finding, rowid int64, peak bool) (int64, error) {
	var res sql.Result
	var err error
	if peak {
		evidence, jerr := json.Marshal(f.Evidence)
		if jerr != nil {
			return 0, jerr
		}
		res, err = tx.Stmt(w.stmts.findingPeak).Exec(rec.ts, rec.seq, f.Severity.String(), f.Title,
			string(evidence), f.Advice, rowid)
	} else {
		res, err = tx.Stmt(w.stmts.findingSeen).Exec(rec.ts, rec.seq, rowid)
	}
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// loadEpisodes picks up the latest episode of each finding when appending, so
// an episode that spans the restart stays one row.
func (w *Writer) loadEpisodes() error {
	rows, err := w.db.Query(`SELECT rowid, id, since, severity FROM findings ORDER BY rowid`)
	if err != nil {
		return trimSQLiteErr(err)
	}
	defer rows.Close()
	w.episodes = map[string]episodeMark{}
	for rows.Next() {
		var m episodeMark
		var id, sev string
		if err := rows.Scan(&m.rowid, &id, &m.since, &sev); err != nil {
			return trimSQLiteErr(err)
		}
		m.severity.UnmarshalText([]byte(sev))
		w.episodes[id] = m
	}
	return trimSQLiteErr(rows.Err())
}
