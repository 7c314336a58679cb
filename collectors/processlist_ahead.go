package collectors

import (
	"context"
	"database/sql"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// aheadRead is the processlist read running on the companion session
// (companion.go) while the sampling session reads the status. Only the raw
// read runs there: neither source makes a temporary table (SHOW FULL
// PROCESSLIST, measured on MariaDB 10.11, is in sampleConn's noTmpTables;
// performance_schema.processlist reads the instrumentation in place), so
// the self measure of temporary tables (status_self.go) still sees all of
// the monitor's on the sampling session, where the rest of the collector (the
// orphan bookkeeping, which needs this tick's Uptime, and the detail reads
// of long statements) runs after the status read as before.
type aheadRead struct {
	cancel context.CancelFunc
	done   chan struct{}
	rows   []snapshot.Process
	err    error
	took   time.Duration
}

// readAhead starts this tick's processlist read on conn; Collect takes it.
func (p *processlist) readAhead(ctx context.Context, conn *sql.Conn, caps Capabilities) {
	ctx, cancel := context.WithCancel(ctx)
	a := &aheadRead{cancel: cancel, done: make(chan struct{})}
	stmt, hint := processlistQuery(caps), p.last+16
	go func() {
		defer close(a.done)
		start := time.Now()
		a.rows, a.err = p.dec.queryProcesses(ctx, conn, stmt, hint)
		a.took = time.Since(start)
	}()
	p.ahead = a
}

// read returns this tick's rows: the companion's when it read them, else
// read on the sampling session, also after the companion failed while the
// tick has time left (one session, as without a companion).
func (p *processlist) read(ctx context.Context, sess *session) ([]snapshot.Process, error) {
	if a := p.joinAhead(); a != nil {
		p.took = a.took
		if a.err == nil || ctx.Err() != nil {
			return a.rows, a.err
		}
	}
	start := time.Now()
	rows, err := p.dec.queryProcesses(ctx, sess.conn, processlistQuery(sess.Caps), p.last+16)
	p.took = time.Since(start)
	return rows, err
}

// joinAhead waits for the read started this tick, if any, and keeps it for
// settleAhead.
func (p *processlist) joinAhead() *aheadRead {
	a := p.ahead
	if a == nil {
		return nil
	}
	p.ahead, p.joined = nil, a
	<-a.done
	a.cancel()
	return a
}

// settleAhead ends the tick's read on the companion and returns it (nil
// when none ran). A read Collect never took (the tick was lost before) is
// cancelled: the driver then closes its connection, and the server may
// still be running the statement.
func (p *processlist) settleAhead() *aheadRead {
	if p.ahead != nil {
		p.ahead.cancel()
		p.joinAhead()
	}
	a := p.joined
	p.joined = nil
	return a
}
