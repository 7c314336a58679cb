package collectors

import (
	"context"
	"database/sql"
	"strings"
)

// tag marks every statement so the monitor's own work is recognisable in the
// server's processlist, slow log and digests.
const tag = "/* mytop-go */ "

// table is a result set as text: column names upper-cased, NULL kept apart
// from the empty string.
type table struct {
	cols []string
	rows [][]sql.NullString
}

// col returns the index of a column (case-insensitive), or -1.
func (t *table) col(name string) int {
	name = strings.ToUpper(name)
	for i, c := range t.cols {
		if c == name {
			return i
		}
	}
	return -1
}

// queryer is what collectors need from a connection; *sql.Conn and *sql.DB
// both provide it.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// execQueryer also runs statements without results and single-row queries.
type execQueryer interface {
	queryer
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// queryTable runs one tagged statement and reads it whole.
func queryTable(ctx context.Context, q queryer, stmt string) (*table, error) {
	t := &table{}
	err := eachRow(ctx, q, stmt, func(cols []string) {
		t.cols = make([]string, len(cols))
		for i, c := range cols {
			t.cols[i] = strings.ToUpper(c)
		}
	}, func(raw []sql.RawBytes) {
		row := make([]sql.NullString, len(raw))
		for i, b := range raw {
			if b != nil {
				row[i] = sql.NullString{String: string(b), Valid: true}
			}
		}
		t.rows = append(t.rows, row)
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// eachRow runs one tagged statement, tells start the column names, and hands
// every row's cells (nil for NULL) to row. The driver reuses the cells'
// memory for the next row, so row copies what it keeps; decoding from them
// directly spares a string per cell on the 5,000-row reads of every tick.
func eachRow(ctx context.Context, q queryer, stmt string, start func(cols []string), row func([]sql.RawBytes)) error {
	var c *sql.Conn
	switch x := q.(type) {
	case *sampleConn:
		x.note(tag + stmt)
		c, q = x.Conn, x.Conn // counted once, whichever path reads it
	case *sql.Conn:
		c = x
	}
	if c != nil {
		if ok, err := eachRowRaw(ctx, c, tag+stmt, start, row); ok {
			return err
		}
	}
	return eachRowSQL(ctx, q, stmt, start, row)
}

// eachRowSQL is eachRow through database/sql.
func eachRowSQL(ctx context.Context, q queryer, stmt string, start func(cols []string), row func([]sql.RawBytes)) error {
	rows, err := q.QueryContext(ctx, tag+stmt)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	start(cols)
	raw := make([]sql.RawBytes, len(cols))
	dest := make([]any, len(cols))
	for i := range raw {
		dest[i] = &raw[i]
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		row(raw)
	}
	return rows.Err()
}

// firstRow returns the first row as column -> value, nil when empty. Column
// names keep the server's spelling, as SHOW REPLICA STATUS prints them.
func firstRow(ctx context.Context, q queryer, stmt string) (map[string]string, error) {
	rows, err := q.QueryContext(ctx, tag+stmt)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	if !rows.Next() {
		return nil, rows.Err()
	}
	vals := make([]sql.NullString, len(cols))
	dest := make([]any, len(cols))
	for i := range vals {
		dest[i] = &vals[i]
	}
	if err := rows.Scan(dest...); err != nil {
		return nil, err
	}
	m := make(map[string]string, len(cols))
	for i, c := range cols {
		m[c] = vals[i].String
	}
	return m, rows.Close()
}

// cell is row[i] as text, "" for NULL or a missing column (i < 0).
func cell(row []sql.NullString, i int) string {
	if i < 0 || i >= len(row) {
		return ""
	}
	return row[i].String
}
