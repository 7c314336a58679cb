package collectors

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// digests reads performance_schema's statement digests, only the rows that
// changed since its last read (digests_read.go), and stores each interval's
// differences in Snapshot.Statements. It keeps the previous counters of every
// digest, so a server with 50,000 digests costs one scan of the table on the
// server and a few changed rows over the wire, not the whole table.
type digests struct {
	link *serverLink
	sess *session // the session the state below belongs to
	// unavailable says why digests cannot be read on this session; checked
	// again every digestsRecheck.
	unavailable string
	checkedAt   time.Time
	cols        digestColumns
	state       digestState
	last        *snapshot.Statements
	// readCost is how long the last interval read took (digests_period.go).
	readCost time.Duration
}

// digestsRecheck is how often a server without digests is asked again: the
// digest consumer can be switched on at runtime.
const digestsRecheck = refusalTTL

// perfSchemaOffLine is what the statements view says when performance_schema
// is off, with the my.cnf line that turns it on (it needs a restart).
const perfSchemaOffLine = "performance_schema is off (MariaDB's default): add `performance_schema=ON` under [mysqld] in my.cnf and restart; top statements are sampled from the processlist meanwhile"

// Name implements Collector.
func (c *digests) Name() snapshot.CollectorName { return snapshot.CollectorStatements }

// Collect implements Collector.
func (c *digests) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	sess := c.link.session()
	if sess == nil {
		return errNotConnected
	}
	if sess != c.sess {
		c.sess, c.checkedAt, c.unavailable = sess, time.Time{}, ""
		c.state = digestState{}
		c.last = nil
	}
	// performance_schema needs a restart to change: the variables already
	// read this tick say it is off without a statement of ours.
	if strings.EqualFold(s.Variables["performance_schema"], "OFF") {
		setUnavailable(s, snapshot.CollectorStatements, perfSchemaOffLine)
		return nil
	}
	if c.unavailable != "" || c.checkedAt.IsZero() {
		if err := c.check(ctx, sess, s.Time); err != nil {
			return err
		}
	}
	if c.unavailable != "" {
		setUnavailable(s, snapshot.CollectorStatements, c.unavailable)
		return nil
	}
	started := time.Now()
	st, err := c.state.read(ctx, sess.conn, &c.cols, s)
	c.noteCost(st, time.Since(started))
	if err != nil {
		if rememberRefusal(err) {
			// A refused read (privilege revoked, table gone) is asked again
			// later; a killed read or a full temporary disk, next period.
			c.unavailable, c.checkedAt = "cannot read statement digests: "+firstLine(err.Error()), s.Time
		}
		return err
	}
	s.Statements, c.last = st, st
	return nil
}

// check finds whether digests can be read, and which columns the table has.
func (c *digests) check(ctx context.Context, sess *session, now time.Time) error {
	if !c.checkedAt.IsZero() && now.Sub(c.checkedAt) < digestsRecheck {
		return nil
	}
	c.checkedAt = now
	why, cols, err := probeDigests(ctx, sess.conn)
	if err != nil {
		return err
	}
	c.unavailable, c.cols = why, cols
	return nil
}

// probeDigests returns why digests cannot be read ("" when they can) and the
// optional columns present. Only transport errors are returned.
func probeDigests(ctx context.Context, q queryer) (string, digestColumns, error) {
	var cols digestColumns
	t, err := queryTable(ctx, q, "SELECT @@performance_schema")
	if err := transportError(err); err != nil {
		return "", cols, err
	}
	if err != nil || len(t.rows) != 1 || t.rows[0][0].String != "1" {
		return perfSchemaOffLine, cols, nil
	}
	t, err = queryTable(ctx, q, "SELECT * FROM "+digestTable+" LIMIT 0")
	if err := transportError(err); err != nil {
		return "", cols, err
	}
	if err != nil && !rememberRefusal(err) {
		return "", cols, err // killed, disk full: not a reason to stop reading
	}
	if err != nil {
		return fmt.Sprintf("cannot read %s (needs SELECT on performance_schema): %s", digestTable,
			firstLine(err.Error())), cols, nil
	}
	cols = columnsOf(t.cols)
	t, err = queryTable(ctx, q, "SELECT ENABLED FROM performance_schema.setup_consumers WHERE NAME = 'statements_digest'")
	if err := transportError(err); err != nil {
		return "", cols, err
	}
	if err == nil && len(t.rows) == 1 && t.rows[0][0].String != "YES" {
		return "statement digests are switched off: UPDATE performance_schema.setup_consumers SET ENABLED = 'YES'" +
			" WHERE NAME = 'statements_digest' (or performance-schema-consumer-statements-digest=ON in my.cnf)", cols, nil
	}
	return "", cols, nil
}

// carry keeps the last sample on ticks between reads, so the view and the
// rules always see the latest interval; consumers count it once by its At.
func (c *digests) carry(_, cur *snapshot.Snapshot) {
	cur.Statements = c.last
}
