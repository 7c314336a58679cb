package recording

import "github.com/mytop-go/mytop-go/snapshot"

// FindingSpans lists every finding episode in the recording, oldest first, for
// a replay's timeline.
func (r *Reader) FindingSpans() ([]snapshot.Span, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.db == nil {
		return nil, errClosed
	}
	// Severity names do not sort by rank ("warning" > "critical"), so rank
	// them. Grouping keeps one span per episode should its row ever be split.
	rows, err := r.db.Query(`SELECT id, max(CASE severity WHEN 'critical' THEN 2
		WHEN 'warning' THEN 1 ELSE 0 END), since, min(shown), max(last_ts) FROM findings
		GROUP BY id, since ORDER BY since, id`)
	if err != nil {
		return nil, trimSQLiteErr(err)
	}
	defer rows.Close()
	var out []snapshot.Span
	for rows.Next() {
		var (
			s               snapshot.Span
			sev             int
			from, shown, to int64
		)
		if err := rows.Scan(&s.ID, &sev, &from, &shown, &to); err != nil {
			return nil, trimSQLiteErr(err)
		}
		s.Severity = snapshot.Severity(sev)
		s.From, s.Shown, s.To = fromNanos(from), fromNanos(shown), fromNanos(to)
		out = append(out, s)
	}
	return out, trimSQLiteErr(rows.Err())
}
