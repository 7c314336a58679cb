package collectors

import (
	"context"
	"strconv"

	"github.com/mytop-go/mytop-go/snapshot"
)

// innoDBSizeStatements list the InnoDB tablespaces with their file sizes:
// MariaDB's name first, then MySQL 8.0's. Both read InnoDB's own file list,
// not every table's statistics as information_schema.TABLES would (which is
// what MySQLTuner sums, and what opens every table on a big server).
var innoDBSizeStatements = []string{
	"SELECT SUM(FILE_SIZE) FROM information_schema.INNODB_SYS_TABLESPACES WHERE NAME <> 'innodb_temporary'",
	"SELECT SUM(FILE_SIZE) FROM information_schema.INNODB_TABLESPACES WHERE NAME <> 'innodb_temporary'",
}

// innoDBSize reads the total size of InnoDB's tablespace files (system
// tablespace included, temporary excluded) into Snapshot.InnoDBFileBytes.
type innoDBSize struct {
	link *serverLink
	last int64
}

// Name implements Collector.
func (c *innoDBSize) Name() snapshot.CollectorName { return snapshot.CollectorInnoDBSize }

// Collect implements Collector.
func (c *innoDBSize) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	sess := c.link.session()
	if sess == nil {
		return errNotConnected
	}
	if !sess.Caps.InnoDB {
		setUnavailable(s, snapshot.CollectorInnoDBSize, innoDBUnavailable(sess.Caps))
		return nil
	}
	var lastErr error
	for _, stmt := range innoDBSizeStatements {
		t, err := queryTable(ctx, sess.conn, stmt)
		if err := transportError(err); err != nil {
			return err
		}
		if err != nil {
			lastErr = err
			continue
		}
		if len(t.rows) == 1 && len(t.rows[0]) == 1 {
			if v, err := strconv.ParseInt(t.rows[0][0].String, 10, 64); err == nil && v > 0 {
				s.InnoDBFileBytes, c.last = v, v
			}
		}
		return nil
	}
	setUnavailable(s, snapshot.CollectorInnoDBSize, "no InnoDB tablespace list: "+firstLine(lastErr.Error()))
	return nil
}

// carry keeps the last size between reads.
func (c *innoDBSize) carry(_, cur *snapshot.Snapshot) { cur.InnoDBFileBytes = c.last }
