package collectors

import (
	"context"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Replica reads SHOW REPLICA STATUS (or SHOW SLAVE STATUS on older servers);
// Snapshot.Replica stays nil when the server is not a replica.
type Replica struct {
	link *serverLink
	last map[string]string
	// idleEvery is the period while the server reports no replication.
	idleEvery time.Duration
}

// period reads a replica every time it is asked to, and a server that is not
// one every idleEvery: an empty SHOW REPLICA STATUS every second was a third
// of the statements the monitor sent. Replication being set up is seen
// within idleEvery, then followed at the configured period.
func (c *Replica) period(configured time.Duration) time.Duration {
	if c.last == nil && c.idleEvery > configured {
		return c.idleEvery
	}
	return configured
}

// Name implements Collector.
func (c *Replica) Name() snapshot.CollectorName { return snapshot.CollectorReplica }

// Collect implements Collector.
func (c *Replica) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	sess := c.link.session()
	if sess == nil {
		return errNotConnected
	}
	if sess.Caps.ReplicaStatement == "" {
		setUnavailable(s, snapshot.CollectorReplica, sess.Caps.ReplicaUnavailable)
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
