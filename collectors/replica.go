package collectors

import (
	"context"
	"database/sql"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Replica reads the status of every replication channel: MariaDB's SHOW ALL
// REPLICAS STATUS (named connections), or MySQL's SHOW REPLICA STATUS,
// which prints one row per channel. Snapshot.ReplicaChannels stays nil when
// the server is not a replica.
type Replica struct {
	link *serverLink
	last []map[string]string
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
	rows, err := rowMaps(ctx, sess.conn, sess.Caps.ReplicaStatement)
	if err != nil {
		return err
	}
	s.ReplicaChannels, c.last = rows, rows
	return nil
}

func (c *Replica) carry(_, cur *snapshot.Snapshot) {
	cur.ReplicaChannels = c.last
}

// rowMaps returns every row as column -> value (NULL as ""), nil when there
// is none. Column names keep the server's spelling.
func rowMaps(ctx context.Context, q queryer, stmt string) ([]map[string]string, error) {
	var cols []string
	var out []map[string]string
	err := eachRow(ctx, q, stmt, func(c []string) { cols = c }, func(raw []sql.RawBytes) {
		m := make(map[string]string, len(cols))
		for i, c := range cols {
			m[c] = string(raw[i])
		}
		out = append(out, m)
	})
	return out, err
}
