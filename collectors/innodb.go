package collectors

import (
	"context"
	"errors"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// innoDB reads and parses SHOW ENGINE INNODB STATUS, which is costlier than
// the counters, so it usually runs every few ticks.
type innoDB struct {
	link *serverLink
	last *snapshot.InnoDBStatus
}

// Name implements Collector.
func (c *innoDB) Name() snapshot.CollectorName { return snapshot.CollectorInnoDB }

// Collect implements Collector. It needs Variables to have run first in the
// same tick so the redo capacity is known.
func (c *innoDB) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	sess := c.link.session()
	if sess == nil {
		return errNotConnected
	}
	if !sess.Caps.InnoDB {
		setUnavailable(s, snapshot.CollectorInnoDB, innoDBUnavailable(sess.Caps))
		return nil
	}
	t, err := queryTable(ctx, sess.conn, "SHOW ENGINE INNODB STATUS")
	if err != nil {
		return err
	}
	readAt := time.Now()
	col := t.col("STATUS")
	if len(t.rows) == 0 || col < 0 {
		return errors.New("SHOW ENGINE INNODB STATUS returned no status")
	}
	st, err := parse.ParseInnoDBStatus(t.rows[0][col].String)
	if err != nil {
		return err
	}
	st.ReadAt = readAt
	st.FillCapacity(s.Variables)
	s.InnoDB, c.last = st, st
	return nil
}

func innoDBUnavailable(c Capabilities) string {
	if !c.Process {
		return "needs the PROCESS privilege"
	}
	return "InnoDB is not enabled on this server"
}

// carry reuses the last parsed status; it is never modified after parsing.
func (c *innoDB) carry(_, cur *snapshot.Snapshot) {
	cur.InnoDB = c.last
}
