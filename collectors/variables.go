package collectors

import (
	"context"
	"maps"

	"github.com/mytop-go/mytop-go/snapshot"
)

// variables reads SHOW GLOBAL VARIABLES when due (every few seconds, not every
// tick) and shares one map between snapshots until a value changes, so a
// recording stores it only then.
type variables struct {
	link    *serverLink
	current map[string]string
	pairs   pairReader
}

const variablesQuery = "SHOW GLOBAL VARIABLES"

// Name implements Collector.
func (c *variables) Name() snapshot.CollectorName { return snapshot.CollectorVariables }

// Collect implements Collector.
func (c *variables) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	sess := c.link.session()
	if sess == nil {
		c.carry(nil, s)
		return errNotConnected
	}
	m, err := c.pairs.read(ctx, sess.conn, variablesQuery)
	if err != nil {
		c.carry(nil, s)
		return err
	}
	c.apply(m, s)
	return nil
}

// apply installs m as the current variables if it differs from them.
func (c *variables) apply(m map[string]string, s *snapshot.Snapshot) {
	if c.current == nil || !maps.Equal(c.current, m) {
		c.current = m
		s.VariablesChanged = true
	}
	s.Variables = c.current
}

// carry keeps the last known variables: configuration does not vanish when a
// sample fails.
func (c *variables) carry(_, cur *snapshot.Snapshot) {
	cur.Variables = c.current
}

// carrySkipped implements skipCarrier: configuration does not vanish while
// the server cannot be asked.
func (c *variables) carrySkipped(prev, cur *snapshot.Snapshot) { c.carry(prev, cur) }
