package collectors

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Locks reads who waits for whom (Snapshot.Locks), and only when something
// waits: a processlist thread in a lock-wait state, Innodb_row_lock_current_waits
// above 0, or (without that counter) a lock wait in the InnoDB status. It runs
// after those sources in the tick and sends nothing otherwise. Sources are
// found by trying them, once per connection, in order of precision: the
// server's lock tables, then the InnoDB status, then the processlist alone,
// each fallback named in Locks.Notes.
type Locks struct {
	link *serverLink
	// budget bounds each statement on the server's side, so a slow lock
	// table costs a note, not the connection.
	budget time.Duration
	sess   *Session
	row    rowSource
	mdl    mdlSource
	// refused remembers why a source was given up on this connection.
	refused map[string]string
}

// Name implements Collector.
func (c *Locks) Name() snapshot.CollectorName { return snapshot.CollectorLocks }

// lockNeed is what the tick's other sources say waits.
type lockNeed struct {
	row, metadata, table, queryCache bool
}

func (n lockNeed) any() bool { return n.row || n.metadata || n.table || n.queryCache }

// needOf reads the waits off the snapshot's processlist, status and InnoDB
// status, without a statement.
func needOf(s *snapshot.Snapshot) lockNeed {
	var n lockNeed
	for i := range s.Processlist {
		switch snapshot.WaitKind(&s.Processlist[i]) {
		case snapshot.LockMetadata:
			n.metadata = true
		case snapshot.LockTable:
			n.table = true
		case snapshot.LockQueryCache:
			n.queryCache = true
		}
	}
	if v, ok := s.StatusInt("Innodb_row_lock_current_waits"); ok {
		n.row = v > 0
	} else if s.InnoDB != nil {
		n.row = s.InnoDB.Transactions.LockWaits > 0
	}
	return n
}

// Collect implements Collector.
func (c *Locks) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	sess := c.link.session()
	if sess == nil {
		return errNotConnected
	}
	if sess != c.sess {
		c.sess, c.row, c.mdl, c.refused = sess, rowUnknown, mdlUnknown, map[string]string{}
	}
	need := needOf(s)
	if !need.any() {
		return nil
	}
	l := &snapshot.Locks{Sources: map[snapshot.LockKind]string{}}
	var trx trxInfo
	var err error
	long := need.row && longRowQueue(s, l)
	if (need.row || need.metadata) && !long {
		if trx, err = c.readTrx(ctx, sess, s, l); err != nil {
			return err
		}
	}
	if need.row && !long {
		if err := c.rowWaits(ctx, sess, s, l, trx); err != nil {
			return err
		}
	}
	var holds []snapshot.MDLHold
	if need.metadata || need.table {
		notes := len(l.Notes)
		if holds, err = c.mdlHolds(ctx, sess, l); err != nil {
			return err
		}
		if !need.metadata { // read for LOCK TABLES holders only: no metadata part to explain
			l.Notes = l.Notes[:notes]
			delete(l.Sources, snapshot.LockMetadata)
		}
	}
	if need.metadata {
		l.Waits = append(l.Waits, snapshot.MetadataWaits(s.Processlist, holds, l.Threads)...)
	}
	if need.table {
		l.Waits = append(l.Waits, snapshot.TableWaits(s.Processlist, holds)...)
		l.Sources[snapshot.LockTable] = "processlist (inferred)"
	}
	if need.queryCache {
		l.Waits = append(l.Waits, snapshot.QueryCacheWaits(s.Processlist)...)
		l.Sources[snapshot.LockQueryCache] = "processlist (inferred)"
	}
	if len(l.Waits) == 0 && len(l.Notes) == 0 {
		return nil
	}
	if err := c.lastStatements(ctx, sess, s, l); err != nil {
		return err
	}
	s.Locks = l
	return nil
}

// bounded returns stmt with the server-side time limit this server takes:
// MariaDB's SET STATEMENT max_statement_time, MySQL's MAX_EXECUTION_TIME hint.
func (c *Locks) bounded(sess *Session, stmt string) string {
	ms := c.budget.Milliseconds()
	if ms <= 0 {
		return stmt
	}
	if sess.Caps.Flavor == snapshot.FlavorMariaDB {
		return fmt.Sprintf("SET STATEMENT max_statement_time=%.3f FOR %s", float64(ms)/1000, stmt)
	}
	rest, ok := strings.CutPrefix(stmt, "SELECT ")
	if !ok {
		return stmt
	}
	return fmt.Sprintf("SELECT /*+ MAX_EXECUTION_TIME(%d) */ %s", ms, rest)
}

// query runs a bounded statement. A refusal (missing table, privilege,
// time limit) is returned as refused with a one-line reason and remembered
// under source; only transport errors are returned as err.
func (c *Locks) query(ctx context.Context, sess *Session, source, stmt string) (t *table, refused string, err error) {
	if r, ok := c.refused[source]; ok {
		return nil, r, nil
	}
	t, err = queryTable(ctx, sess.conn, c.bounded(sess, stmt))
	if err == nil {
		return t, "", nil
	}
	if serverErrno(err) == 0 {
		return nil, "", err
	}
	reason := refusalReason(err, source)
	if !isTimeLimit(err) {
		c.refused[source] = reason
	}
	return nil, reason, nil
}

// refusalReason is the one line shown for a source the server refused.
func refusalReason(err error, source string) string {
	switch serverErrno(err) {
	case errSpecificAccessDenied, errTableAccessDenied, errDBAccessDenied, errAccessDenied:
		if strings.HasPrefix(source, "performance_schema.") {
			return "not permitted (needs SELECT on performance_schema)"
		}
		return "not permitted (needs the PROCESS privilege)"
	case errNoSuchTable, errUnknownTable:
		return "not on this server"
	}
	if isTimeLimit(err) {
		return "over its time limit"
	}
	return firstLine(err.Error())
}

func isTimeLimit(err error) bool {
	n := serverErrno(err)
	return n == errStatementTimeMariaDB || n == errStatementTimeMySQL
}

// Server errors the lock sources meet.
const (
	errAccessDenied         = 1045
	errDBAccessDenied       = 1044
	errTableAccessDenied    = 1142
	errNoSuchTable          = 1146
	errUnknownTable         = 1109
	errStatementTimeMariaDB = 1969
	errStatementTimeMySQL   = 3024
)

func note(l *snapshot.Locks, format string, args ...any) {
	l.Notes = append(l.Notes, fmt.Sprintf(format, args...))
}

// lockBudget is each lock statement's server-side limit: a fifth of the
// interval, so even three of them leave the tick room.
func lockBudget(interval time.Duration) time.Duration { return interval / 5 }
