package collectors

import (
	"context"
	"strconv"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// preparedOwnersStatement lists the sessions holding the most prepared
// statements, with one statement's text each.
const preparedOwnersStatement = "SELECT t.PROCESSLIST_ID, t.PROCESSLIST_USER, t.PROCESSLIST_HOST, COUNT(*), " +
	"MAX(p.SQL_TEXT) FROM performance_schema.prepared_statements_instances p " +
	"JOIN performance_schema.threads t ON t.THREAD_ID = p.OWNER_THREAD_ID " +
	"GROUP BY p.OWNER_THREAD_ID ORDER BY COUNT(*) DESC LIMIT 5"

// preparedOwners names the sessions that hold prepared statements, into
// Snapshot.PreparedOwners. It sends its statement only while
// Prepared_stmt_count (read this tick) is at least half of
// max_prepared_stmt_count and performance_schema is on: a server far from
// the limit costs nothing.
type preparedOwners struct {
	link *serverLink
}

// Name implements Collector.
func (c *preparedOwners) Name() snapshot.CollectorName { return snapshot.CollectorPreparedOwners }

// Collect implements Collector.
func (c *preparedOwners) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	if !preparedNearLimit(s) {
		return nil
	}
	sess := c.link.session()
	if sess == nil {
		return errNotConnected
	}
	t, err := queryTable(ctx, sess.conn, preparedOwnersStatement)
	if err != nil {
		return err
	}
	for _, r := range t.rows {
		if len(r) < 5 {
			continue
		}
		id, _ := strconv.ParseInt(r[0].String, 10, 64)
		n, _ := strconv.ParseInt(r[3].String, 10, 64)
		s.PreparedOwners = append(s.PreparedOwners, snapshot.PreparedOwner{ThreadID: id, User: r[1].String,
			Host: r[2].String, Count: n, Sample: r[4].String})
	}
	return nil
}

// preparedNearLimit: performance_schema is on and the server holds at least
// half of max_prepared_stmt_count.
func preparedNearLimit(s *snapshot.Snapshot) bool {
	if !strings.EqualFold(strings.TrimSpace(s.Variables["performance_schema"]), "ON") {
		return false
	}
	n, ok1 := s.StatusFloat("Prepared_stmt_count")
	limit, ok2 := s.VarFloat("max_prepared_stmt_count")
	return ok1 && ok2 && limit > 0 && n >= limit/2
}
