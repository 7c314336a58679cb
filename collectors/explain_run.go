package collectors

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// maxRunningPlanWait bounds SHOW EXPLAIN FOR / EXPLAIN FOR CONNECTION: the
// target thread answers only between rows, not while it waits for a lock.
const maxRunningPlanWait = time.Second

// runner runs fn on the on-demand connection; false when it did not run
// because the connection was busy.
type runner func(ctx context.Context, fn func(*sql.Conn) error) (bool, error)

// planOf gets the plan of p's statement: the running plan when the server
// can show it, else plain EXPLAIN of its text (prepared statements, a thread
// stuck in a lock wait, servers without SHOW EXPLAIN). Never EXPLAIN ANALYZE
// or ANALYZE: they execute the statement.
func planOf(ctx context.Context, run runner, method string, p snapshot.Process) (rows []snapshot.ExplainRow, used string, ran bool, err error) {
	if method == explainShowFor || method == explainForConnection {
		sub, cancel := context.WithTimeout(ctx, runningPlanWait(ctx))
		ran, err = run(sub, func(c *sql.Conn) error {
			t, err := queryTable(sub, c, fmt.Sprintf("%s %d", method, p.ID))
			if err == nil {
				rows = decodeExplain(t)
			}
			return err
		})
		cancel()
		if !ran || (err == nil && len(rows) > 0) || ctx.Err() != nil {
			return rows, method, ran, err
		}
	}
	ran, err = run(ctx, func(c *sql.Conn) error {
		var err error
		rows, err = explainText(ctx, c, p.DB, p.Info)
		return err
	})
	return rows, explainStatement, ran, err
}

// runningPlanWait leaves half of the remaining time for the fallback.
func runningPlanWait(ctx context.Context) time.Duration {
	if dl, ok := ctx.Deadline(); ok {
		return min(time.Until(dl)/2, maxRunningPlanWait)
	}
	return maxRunningPlanWait
}

// explainText runs plain EXPLAIN on a statement in its thread's database.
func explainText(ctx context.Context, q execQueryer, db, stmt string) ([]snapshot.ExplainRow, error) {
	body := stripLeadingComments(stmt)
	if !explainable(body) {
		return nil, fmt.Errorf("cannot EXPLAIN a %s statement", firstWord(body))
	}
	if db != "" {
		if _, err := q.ExecContext(ctx, tag+"USE "+quoteIdent(db)); err != nil {
			return nil, err
		}
	}
	t, err := queryTable(ctx, q, "EXPLAIN "+body)
	if err != nil {
		return nil, err
	}
	return decodeExplain(t), nil
}

// decodeExplain reads the classic tabular EXPLAIN columns.
func decodeExplain(t *table) []snapshot.ExplainRow {
	id, st, tbl, typ := t.col("ID"), t.col("SELECT_TYPE"), t.col("TABLE"), t.col("TYPE")
	pk, key, rows, extra := t.col("POSSIBLE_KEYS"), t.col("KEY"), t.col("ROWS"), t.col("EXTRA")
	out := make([]snapshot.ExplainRow, 0, len(t.rows))
	for _, r := range t.rows {
		out = append(out, snapshot.ExplainRow{
			ID: cell(r, id), SelectType: cell(r, st), Table: cell(r, tbl), Type: cell(r, typ),
			PossibleKeys: cell(r, pk), Key: cell(r, key), Rows: parseInt(cell(r, rows)), Extra: cell(r, extra),
		})
	}
	return out
}

// tableRowEstimates looks up the optimizer's row estimate of each base table
// in the plan. EXPLAIN prints aliases where the query used them; those, and
// derived tables such as <derived2>, are simply not found.
func tableRowEstimates(ctx context.Context, q execQueryer, db string, rows []snapshot.ExplainRow) map[string]int64 {
	if db == "" {
		return nil
	}
	out := map[string]int64{}
	for _, r := range rows {
		if r.Table == "" || strings.HasPrefix(r.Table, "<") {
			continue
		}
		if _, done := out[r.Table]; done {
			continue
		}
		var n int64
		err := q.QueryRowContext(ctx, tag+"SELECT COALESCE(TABLE_ROWS, 0) FROM information_schema.TABLES"+
			" WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?", db, r.Table).Scan(&n)
		if err == nil {
			out[r.Table] = n
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// quoteIdent quotes an identifier for MySQL.
func quoteIdent(s string) string {
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// stripLeadingComments drops leading whitespace, /* */, -- and # comments and
// opening parentheses, so the statement starts with its verb.
func stripLeadingComments(q string) string {
	for {
		q = strings.TrimLeft(q, " \t\r\n(")
		switch {
		case strings.HasPrefix(q, "/*"):
			end := strings.Index(q[2:], "*/")
			if end < 0 {
				return ""
			}
			q = q[end+4:]
		case strings.HasPrefix(q, "#"), strings.HasPrefix(q, "-- "):
			end := strings.IndexByte(q, '\n')
			if end < 0 {
				return ""
			}
			q = q[end+1:]
		default:
			return q
		}
	}
}

// firstWord is the statement's first keyword, upper-cased.
func firstWord(q string) string {
	end := strings.IndexFunc(q, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_')
	})
	if end < 0 {
		end = len(q)
	}
	return strings.ToUpper(q[:end])
}
