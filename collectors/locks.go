package collectors

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// locks reads who waits for whom (Snapshot.Locks), and only when something
// waits: a processlist thread in a lock-wait state, Innodb_row_lock_current_waits
// above 0, or (without that counter) a lock wait in the InnoDB status. It runs
// after those sources in the tick and sends nothing otherwise. Sources are
// found by trying them, once per connection, in order of precision: the
// server's lock tables, then the InnoDB status, then the processlist alone,
// each fallback named in Locks.Notes.
type locks struct {
	link *serverLink
	// budget bounds each statement on the server's side, so a slow lock
	// table costs a note, not the connection.
	budget time.Duration
	sess   *session
	row    rowSource
	mdl    mdlSource
	// refused remembers why a source was given up on this connection, for
	// refusalTTL; only a missing privilege or table is remembered.
	refused refusals
	mdlWhy  string
	now     time.Time // the tick's time, which refusals are dated by
	// fresh is the InnoDB status read for this lock read (innoDBForLocks).
	fresh *snapshot.InnoDBStatus
}

// Name implements Collector.
func (c *locks) Name() snapshot.CollectorName { return snapshot.CollectorLocks }

// lockNeed is what the tick's other sources say waits.
type lockNeed struct {
	row, metadata, table, queryCache, global bool
}

func (n lockNeed) any() bool { return n.row || n.metadata || n.table || n.queryCache || n.global }

// needOf reads the waits off the snapshot's processlist, status and InnoDB
// status, without a statement.
func needOf(s *snapshot.Snapshot) lockNeed {
	var n lockNeed
	for i := range s.Processlist {
		switch infer.WaitKind(&s.Processlist[i]) {
		case snapshot.LockMetadata:
			n.metadata = true
		case snapshot.LockTable:
			n.table = true
		case snapshot.LockQueryCache:
			n.queryCache = true
		case snapshot.LockGlobal:
			n.global = true
		}
	}
	// Innodb_row_lock_current_waits counts record locks only: a queue on a
	// table lock (AUTO-INC with innodb_autoinc_lock_mode=0, LOCK TABLES on
	// InnoDB) leaves it at 0, and the InnoDB status (carried between its
	// reads) is then the one sign that a transaction waits.
	if v, ok := s.StatusInt("Innodb_row_lock_current_waits"); ok && v > 0 {
		n.row = true
	} else if s.InnoDB != nil {
		n.row = s.InnoDB.Transactions.LockWaits > 0
	}
	return n
}

// Collect implements Collector.
func (c *locks) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	sess := c.link.session()
	if sess == nil {
		return errNotConnected
	}
	if sess != c.sess {
		c.sess, c.row, c.mdl, c.refused = sess, rowUnknown, mdlUnknown, refusals{}
	}
	c.now = s.Time
	if c.refused.expire(s.Time) && c.mdl == mdlInferred {
		c.mdl = mdlUnknown // ask the lock tables again
	}
	need := needOf(s)
	if !need.any() {
		return nil
	}
	c.fresh = nil
	l := &snapshot.Locks{Sources: map[snapshot.LockKind]string{}, At: time.Now(), ReadAt: map[snapshot.LockKind]time.Time{}}
	var trx trxInfo
	var err error
	long := false
	if need.row {
		if long, err = c.longRowQueue(ctx, sess, s, l); err != nil {
			return err
		}
	}
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
	var holds []infer.MDLHold
	if need.metadata || need.table || need.global {
		notes := len(l.Notes)
		if holds, err = c.mdlHolds(ctx, sess, l); err != nil {
			return err
		}
		if need.global {
			l.Sources[snapshot.LockGlobal] = l.Sources[snapshot.LockMetadata]
			l.ReadAt[snapshot.LockGlobal] = s.Time
		}
		if !need.metadata { // read for LOCK TABLES holders only: no metadata part to explain
			if !need.global {
				l.Notes = l.Notes[:notes]
			}
			delete(l.Sources, snapshot.LockMetadata)
		}
	}
	if need.global {
		l.Waits = append(l.Waits, infer.GlobalWaits(s.Processlist, holds)...)
	}
	var inference *infer.LockInference
	if need.metadata || need.table {
		inference = infer.NewLockInference(s.Processlist) // each statement parsed once per frame
	}
	if need.metadata {
		l.Waits = append(l.Waits, inference.MetadataWaits(holds, l.Threads)...)
		l.ReadAt[snapshot.LockMetadata] = s.Time // the processlist's waiters
	}
	if need.table {
		l.Waits = append(l.Waits, inference.TableWaits(holds)...)
		l.Sources[snapshot.LockTable] = "processlist (inferred)"
		l.ReadAt[snapshot.LockTable] = s.Time
	}
	if need.queryCache {
		l.Waits = append(l.Waits, infer.QueryCacheWaits(s.Processlist)...)
		l.Sources[snapshot.LockQueryCache] = "processlist (inferred)"
		l.ReadAt[snapshot.LockQueryCache] = s.Time
	}
	if len(l.Waits) == 0 && len(l.Notes) == 0 {
		return nil
	}
	if err := c.threadlessTrx(ctx, sess, s, l); err != nil {
		return err
	}
	if err := c.lastStatements(ctx, sess, s, l); err != nil {
		return err
	}
	s.Locks = l
	return nil
}

// bounded returns stmt with the server-side time limit this server takes:
// MariaDB's SET STATEMENT max_statement_time, MySQL's MAX_EXECUTION_TIME hint.
// The limit is the smaller of the budget and the tick's time left less a
// margin, so the server gives up before the tick's deadline cuts the
// connection (which would drop the session and re-run every capability
// probe). ok is false when the tick has too little time left to try.
func (c *locks) bounded(ctx context.Context, sess *session, stmt string) (string, bool) {
	limit := c.budget
	if dl, has := ctx.Deadline(); has {
		limit = min(limit, time.Until(dl)-c.budget/4)
	}
	ms := limit.Milliseconds()
	if c.budget <= 0 {
		return stmt, true
	}
	if ms < minLockStatementMs {
		return "", false
	}
	if sess.Caps.Flavor == snapshot.FlavorMariaDB {
		return fmt.Sprintf("SET STATEMENT max_statement_time=%.3f FOR %s", float64(ms)/1000, stmt), true
	}
	rest, ok := strings.CutPrefix(stmt, "SELECT ")
	if !ok {
		return stmt, true
	}
	return fmt.Sprintf("SELECT /*+ MAX_EXECUTION_TIME(%d) */ %s", ms, rest), true
}

// minLockStatementMs is the shortest limit a lock statement is sent with;
// with less of the tick left it waits for the next tick.
const minLockStatementMs = 10

// noTimeLeft is the reason given for a lock statement not sent.
const noTimeLeft = "not read: too little of the tick left"

// query runs a bounded statement. A refusal (missing table, privilege,
// time limit, killed) is returned as refused with a one-line reason, and
// remembered under source for refusalTTL when it is a missing privilege or
// table; only transport errors are returned as err.
func (c *locks) query(ctx context.Context, sess *session, source, stmt string) (t *table, refused string, err error) {
	if r, ok := c.refused.get(source); ok {
		return nil, r, nil
	}
	bounded, ok := c.bounded(ctx, sess, stmt)
	if !ok {
		return nil, noTimeLeft, nil
	}
	t, err = queryTable(ctx, sess.conn, bounded)
	if err == nil {
		return t, "", nil
	}
	if serverErrno(err) == 0 {
		return nil, "", err
	}
	reason := refusalReason(err, source)
	if rememberRefusal(err) {
		c.refused.set(source, reason, c.now)
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
