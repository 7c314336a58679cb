package collectors

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

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

	mu sync.Mutex
	// abandoned are threads we gave up on after a timeout and are killing;
	// hidden meanwhile, they are still ours.
	abandoned map[int64]bool
}

// maxAbandoned bounds the kills in flight against a stuck server.
const maxAbandoned = 4

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
	l.mu.Lock()
	for id := range l.abandoned {
		ids = append(ids, id)
	}
	l.mu.Unlock()
	return ids
}

// killAbandoned kills a thread whose statement we stopped waiting for: the
// server may still be running it. It runs in the background on a fresh
// connection from db, bounded by timeout.
func (l *serverLink) killAbandoned(db *sql.DB, id int64, timeout time.Duration) {
	l.mu.Lock()
	if id <= 0 || l.abandoned[id] || len(l.abandoned) >= maxAbandoned {
		l.mu.Unlock()
		return
	}
	if l.abandoned == nil {
		l.abandoned = map[int64]bool{}
	}
	l.abandoned[id] = true
	l.mu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		db.ExecContext(ctx, fmt.Sprintf("%sKILL CONNECTION %d", tag, id))
		l.mu.Lock()
		delete(l.abandoned, id)
		l.mu.Unlock()
	}()
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
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}
