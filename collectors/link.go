package collectors

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"sync/atomic"

	"github.com/go-sql-driver/mysql"
)

// errNotConnected is returned by collectors while the server is down.
var errNotConnected = errors.New("not connected")

// serverLink is the connection state the scheduler shares with its
// collectors. The sampling session is only touched on the tick goroutine; the
// on-demand connection's id is read by the processlist while the UI may be
// opening it, hence atomic.
type serverLink struct {
	sess     *Session
	actionID atomic.Int64
}

func (l *serverLink) session() *Session { return l.sess }

// ownIDs are the monitor's threads, hidden from the processlist.
func (l *serverLink) ownIDs() []int64 {
	ids := make([]int64, 0, 2)
	if l.sess != nil {
		ids = append(ids, l.sess.ID)
	}
	if id := l.actionID.Load(); id > 0 {
		ids = append(ids, id)
	}
	return ids
}

// connectionLost reports whether err means the connection can no longer be
// trusted (timeout, broken socket), as opposed to the server refusing one
// statement.
func connectionLost(err error) bool {
	var netErr net.Error
	switch {
	case err == nil:
		return false
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled),
		errors.Is(err, driver.ErrBadConn), errors.Is(err, mysql.ErrInvalidConn),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, errNotConnected), errors.As(err, &netErr):
		return true
	}
	return false
}

// isDeadline reports a statement or dial that ran out of time.
func isDeadline(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || isTimeout(err)
}
