package collectors

import (
	"context"
	"database/sql"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// replica reads the status of every replication channel: MariaDB's SHOW ALL
// REPLICAS STATUS (named connections), or MySQL's SHOW REPLICA STATUS,
// which prints one row per channel. Snapshot.ReplicaChannels stays nil when
// the server is not a replica.
type replica struct {
	link *serverLink
	last []map[string]string
	// idleEvery is the period while the server reports no replication.
	idleEvery time.Duration
}

// period reads a replica every time it is asked to, and a server that is not
// one every idleEvery: an empty SHOW REPLICA STATUS every second was a third
// of the statements the monitor sent. Replication being set up is seen
// within idleEvery, then followed at the configured period.
func (c *replica) period(configured time.Duration) time.Duration {
	if c.last == nil && c.idleEvery > configured {
		return c.idleEvery
	}
	return configured
}

// Name implements Collector.
func (c *replica) Name() snapshot.CollectorName { return snapshot.CollectorReplica }

// Collect implements Collector.
func (c *replica) Collect(ctx context.Context, s *snapshot.Snapshot) error {
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
	if len(rows) == 0 && isAurora(s.Variables) {
		if rows, err = auroraRows(ctx, sess, s.Variables["aurora_server_id"]); err != nil {
			return err
		}
	}
	if len(rows) > 0 && sess.Caps.ReplicaWorkers {
		// Only on a replica, and a refusal loses the detail, not the channels.
		if workers, err := rowMaps(ctx, sess.conn, workersStatement); err == nil {
			addWorkers(rows, workers)
		} else if connectionLost(err) {
			return err
		}
	}
	s.ReplicaChannels, c.last = rows, rows
	return nil
}

// workersStatement counts each MySQL channel's applier workers and names the
// transaction they apply (performance_schema.replication_applier_status_by_worker).
const workersStatement = "SELECT CHANNEL_NAME, COUNT(*) AS WORKERS, SUM(SERVICE_STATE = 'ON') AS RUNNING," +
	" MAX(APPLYING_TRANSACTION) AS APPLYING FROM performance_schema.replication_applier_status_by_worker" +
	" GROUP BY CHANNEL_NAME"

// addWorkers puts the worker figures into each channel's row under names no
// server prints (Applier_Workers, Applier_Workers_Running,
// Applying_Transaction), so a recording carries them with the row.
func addWorkers(rows, workers []map[string]string) {
	byChannel := map[string]map[string]string{}
	for _, w := range workers {
		byChannel[w["CHANNEL_NAME"]] = w
	}
	for _, r := range rows {
		w, ok := byChannel[r["Channel_Name"]]
		if !ok {
			continue
		}
		r["Applier_Workers"], r["Applier_Workers_Running"] = w["WORKERS"], w["RUNNING"]
		if w["APPLYING"] != "" {
			r["Applying_Transaction"] = w["APPLYING"]
		}
	}
}

func (c *replica) carry(_, cur *snapshot.Snapshot) {
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

// auroraRows is an Aurora reader's lag as one channel; a refused read is
// no channel, not an outage.
func auroraRows(ctx context.Context, sess *session, self string) ([]map[string]string, error) {
	rows, err := rowMaps(ctx, sess.conn, auroraStatement)
	if err != nil {
		if connectionLost(err) {
			return nil, err
		}
		return nil, nil
	}
	if row := auroraChannel(rows, self); row != nil {
		return []map[string]string{row}, nil
	}
	return nil, nil
}
