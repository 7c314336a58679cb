package collectors

import (
	"context"
	"errors"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

const srcInnoDBStatus = "SHOW ENGINE INNODB STATUS"

// innoDBForLocks returns an InnoDB status no older than this lock read:
// the InnoDB collector's when it read one this tick, else one read now (it
// runs every few ticks, so the frame's may be seconds old, and a wait that
// has ended since would show as a phantom tree). nil, with a note, when
// none can be read; the caller then draws no edge from the status.
func (c *locks) innoDBForLocks(ctx context.Context, sess *session, s *snapshot.Snapshot, l *snapshot.Locks) (*snapshot.InnoDBStatus, error) {
	if c.fresh != nil {
		return c.fresh, nil
	}
	if st := s.InnoDB; st != nil && !st.ReadAt.IsZero() && !st.ReadAt.Before(s.Time) {
		c.fresh = st
		return st, nil
	}
	t, refused, err := c.query(ctx, sess, srcInnoDBStatus, srcInnoDBStatus)
	if err != nil {
		return nil, err
	}
	var st *snapshot.InnoDBStatus
	if refused == "" {
		readAt := time.Now()
		if col := t.col("STATUS"); col >= 0 && len(t.rows) > 0 {
			st, err = parse.ParseInnoDBStatus(t.rows[0][col].String)
		} else {
			err = errors.New("no status returned")
		}
		if err != nil {
			refused = err.Error()
			st = nil
		} else {
			st.ReadAt = readAt
		}
	}
	if st == nil {
		old := "none in this frame"
		if s.InnoDB != nil && !s.InnoDB.ReadAt.IsZero() {
			old = "the frame's is " + s.Time.Sub(s.InnoDB.ReadAt).Round(100*time.Millisecond).String() + " old"
		}
		note(l, "row locks: no InnoDB status as fresh as the lock read (%s %s; %s): no edge drawn from it",
			srcInnoDBStatus, refused, old)
		return nil, nil
	}
	c.fresh = st
	return st, nil
}
