package collectors

import (
	"context"
	"database/sql"
)

// sampleConn is the sampling connection. It counts the statements that may
// leave temporary tables in the session's own status: every statement but
// the few below, which make none there (the SHOW ... STATUS reads, which the
// server leaves out of the session's counters, SHOW FULL PROCESSLIST, SHOW
// ENGINE INNODB STATUS and the replica status statements, none of them
// information_schema reads). The self measure (status_self.go) reads the
// session counters only after a counted statement ran: at 5,000 idle
// connections most ticks send nothing else, and that read would be one
// statement a tick more than innotop sends, for nothing.
// TestLiveSelfTmpEveryInterval proves the list on a real server.
type sampleConn struct {
	*sql.Conn
	tmpMakers int
}

// noTmpTables are the statements, as sent (tagged), left out of the count.
var noTmpTables = func() map[string]bool {
	m := map[string]bool{}
	for _, q := range append([]string{"SHOW GLOBAL STATUS", "SHOW FULL PROCESSLIST", "SHOW ENGINE INNODB STATUS",
		globalTmpQuery, sessionTmpQuery}, replicaStatements...) {
		m[tag+q] = true
	}
	return m
}()

func (c *sampleConn) note(query string) {
	if !noTmpTables[query] {
		c.tmpMakers++
	}
}

func (c *sampleConn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	c.note(query)
	return c.Conn.QueryContext(ctx, query, args...)
}

func (c *sampleConn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	c.note(query)
	return c.Conn.ExecContext(ctx, query, args...)
}

func (c *sampleConn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	c.note(query)
	return c.Conn.QueryRowContext(ctx, query, args...)
}
