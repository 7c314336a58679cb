package collectors

import (
	"context"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Replica reads SHOW REPLICA STATUS (or SHOW SLAVE STATUS on older servers);
// Snapshot.Replica stays nil when the server is not a replica.
type Replica struct {
	link *serverLink
	last map[string]string
}

// Name implements Collector.
func (c *Replica) Name() string { return NameReplica }

// Collect implements Collector.
func (c *Replica) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	sess := c.link.session()
	if sess == nil {
		return errNotConnected
	}
	if sess.Caps.ReplicaStatement == "" {
		setUnavailable(s, NameReplica, sess.Caps.ReplicaUnavailable)
		return nil
	}
	m, err := firstRow(ctx, sess.conn, sess.Caps.ReplicaStatement)
	if err != nil {
		return err
	}
	s.Replica, c.last = m, m
	return nil
}

func (c *Replica) carry(_, cur *snapshot.Snapshot) {
	cur.Replica = c.last
}
