package collectors

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/snapshot"
)

const (
	// actionIdle is how long the on-demand connection stays open unused.
	actionIdle = 30 * time.Second
)

// actionSettings are the on-demand connection's session timeouts
// (session_timeouts.go); lock_wait_timeout keeps a plain EXPLAIN from
// queueing behind a DDL for long (it needs a shared metadata lock).
var actionSettings = timeoutSettings(actionIdle+actionWaitTimeoutPad, actionLockWait)

// actionConn is the second connection, opened on demand for EXPLAIN and KILL
// so they never delay sampling.
type actionConn struct {
	db      *sql.DB
	greeted greetings
	link    *serverLink
	mu      sync.Mutex
	conn    *sql.Conn
	used    time.Time
}

func newActionConn(gate *loginGate, link *serverLink) (*actionConn, error) {
	a := &actionConn{link: link}
	connector, err := newGatedConnector(gate, func(c *mysql.Config) (driver.Connector, error) { return greetedConnector(c, &a.greeted) })
	if err != nil {
		return nil, err
	}
	a.db = sql.OpenDB(connector)
	a.db.SetMaxIdleConns(0)
	return a, nil
}

// do runs fn on the connection, opening it if needed, and waits for it.
func (a *actionConn) do(ctx context.Context, fn func(*sql.Conn) error) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.locked(ctx, fn)
}

// tryDo is do without waiting: false when the UI is using the connection.
func (a *actionConn) tryDo(ctx context.Context, fn func(*sql.Conn) error) (bool, error) {
	if !a.mu.TryLock() {
		return false, nil
	}
	defer a.mu.Unlock()
	return true, a.locked(ctx, fn)
}

// locked runs fn with a.mu held. A connection kept from earlier may have
// died meanwhile (server restart, idle timeout), so a broken one is replaced
// and fn tried once more; EXPLAIN and KILL are safe to repeat.
func (a *actionConn) locked(ctx context.Context, fn func(*sql.Conn) error) error {
	reused := a.conn != nil
	err := a.runOnce(ctx, fn)
	if reused && connectionLost(err) && !isDeadline(err) && ctx.Err() == nil {
		err = a.runOnce(ctx, fn)
	}
	return err
}

func (a *actionConn) runOnce(ctx context.Context, fn func(*sql.Conn) error) error {
	if a.conn == nil {
		if err := a.open(ctx); err != nil {
			return err
		}
	}
	err := fn(a.conn)
	a.used = time.Now()
	if connectionLost(err) && a.conn != nil {
		// The server may still run the statement (or hold the session over
		// a stalled link): an orphan, killed over the sampling session.
		discard(a.conn)
		a.conn = nil
		a.link.actionLost(time.Now())
	}
	return err
}

func (a *actionConn) open(ctx context.Context) error {
	if !a.link.reserve(time.Now()) {
		return errSessionCap
	}
	began := time.Now()
	conn, id, err := openBare(ctx, a.db, actionSettings)
	if err != nil {
		orphansOfOpen(a.link, &a.greeted, began, 0, id, err)
		a.link.release()
		return err
	}
	orphansOfOpen(a.link, &a.greeted, began, id, 0, nil)
	a.conn = conn
	a.link.actionOpened(id)
	return nil
}

func (a *actionConn) drop() {
	if a.conn == nil {
		return
	}
	discard(a.conn)
	a.conn = nil
	a.link.actionClosed()
}

// closeIfIdle closes the connection after a while without use.
func (a *actionConn) closeIfIdle(now time.Time) {
	if !a.mu.TryLock() {
		return
	}
	defer a.mu.Unlock()
	if a.conn != nil && now.Sub(a.used) > actionIdle {
		a.drop()
	}
}

func (a *actionConn) close() {
	a.mu.Lock()
	a.drop()
	a.mu.Unlock()
	a.db.Close()
}

// Explain returns the plan of a thread's running statement. query is the
// statement text (from the processlist), used with plain EXPLAIN when the
// server cannot show the running plan; empty means the last sampled text.
func (l *Live) Explain(ctx context.Context, threadID int64, query string) ([]snapshot.ExplainRow, error) {
	if threadID <= 0 {
		return nil, fmt.Errorf("explain: invalid thread id %d", threadID)
	}
	p := snapshot.Process{ID: threadID, Info: query}
	if last, ok := l.lastThread(threadID); ok {
		p.DB = last.DB
		if p.Info == "" {
			p.Info = last.Info
		}
	}
	method := ""
	if caps := l.sharedCaps.Load(); caps != nil {
		method = caps.Explain
	}
	wait := func(ctx context.Context, fn func(*sql.Conn) error) (bool, error) {
		return true, l.actions.do(ctx, fn)
	}
	rows, _, _, err := planOf(ctx, wait, method, p)
	return rows, err
}
