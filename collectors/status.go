package collectors

import (
	"context"

	"github.com/mytop-go/mytop-go/snapshot"
)

// status reads SHOW GLOBAL STATUS every tick; rates are derived later by
// snapshot.Delta.
type status struct {
	link  *serverLink
	pairs pairReader
	self  selfTmp
	sess  *session // the session self measures
}

// Name implements Collector.
func (c *status) Name() snapshot.CollectorName { return snapshot.CollectorStatus }

// Collect implements Collector.
func (c *status) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	sess := c.link.session()
	if sess == nil {
		return errNotConnected
	}
	m, err := c.pairs.read(ctx, sess.conn, "SHOW GLOBAL STATUS")
	if err != nil {
		return err
	}
	s.Status = m
	if sess != c.sess {
		c.sess, c.self.reads = sess, 0 // a new session: measure its own again
	}
	// The monitor's own temporary tables, measured (status_self.go), so
	// rules subtract them instead of assuming a share. A server that
	// refuses the reads only loses that.
	s.SelfStatus = c.self.read(ctx, sess.conn, m)
	return nil
}
