package collectors

import (
	"context"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Status reads SHOW GLOBAL STATUS every tick; rates are derived later by
// snapshot.Delta.
type Status struct {
	link  *serverLink
	pairs pairReader
	self  pairReader
}

// Name implements Collector.
func (c *Status) Name() snapshot.CollectorName { return snapshot.CollectorStatus }

// Collect implements Collector.
func (c *Status) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	sess := c.link.session()
	if sess == nil {
		return errNotConnected
	}
	m, err := c.pairs.read(ctx, sess.conn, "SHOW GLOBAL STATUS")
	if err != nil {
		return err
	}
	s.Status = m
	// The monitor's own session counters: what its statements (this one
	// included) add to the global ones, so rules subtract the measured share
	// instead of assuming one. A server that refuses it only loses that.
	if own, err := c.self.read(ctx, sess.conn, "SHOW SESSION STATUS LIKE 'Created\\_tmp%'"); err == nil {
		s.SelfStatus = own
	}
	return nil
}
