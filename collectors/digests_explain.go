package collectors

import (
	"context"
	"database/sql"
	"errors"

	"github.com/mytop-go/mytop-go/snapshot"
)

// ExplainStatement runs plain EXPLAIN on a statement that no thread is
// running, e.g. a digest's sample text, in schema, on the on-demand
// connection. Safe from any goroutine.
func (l *Live) ExplainStatement(ctx context.Context, schema, query string) ([]snapshot.ExplainRow, error) {
	if query == "" {
		return nil, errors.New("explain: no statement")
	}
	var rows []snapshot.ExplainRow
	err := l.actions.do(ctx, func(c *sql.Conn) error {
		var err error
		rows, err = explainText(ctx, c, schema, query)
		return err
	})
	return rows, err
}
