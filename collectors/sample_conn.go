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
	// lastMaker is the last counted statement: when it ran alone between
	// two session reads, the second read tells its own tables.
	lastMaker string
	// learnt are the tables each run of a sameTmpEveryRun statement makes,
	// learnt on this session; learntDue sums them over the runs since the
	// last session read, in ownTmpNames order.
	learnt    map[string][2]float64
	learntDue [2]float64
}

// sameTmpEveryRun are statements whose own temporary tables are the same on
// every run of a session: MariaDB 10.11 materialises SHOW GLOBAL VARIABLES
// in one in-memory table each time (TestLiveSelfTmpEveryInterval). Once
// learnt, a run adds that instead of costing a session read (0.1 statement
// a second at the default 10-s period). Relearnt with every measure of the
// full status read (status_self.go), so a changed tmp_table_size shows.
var sameTmpEveryRun = map[string]bool{tag + variablesQuery: true}

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
	if noTmpTables[query] {
		return
	}
	if own, ok := c.learnt[query]; ok {
		c.learntDue[0] += own[0]
		c.learntDue[1] += own[1]
		return
	}
	c.tmpMakers++
	c.lastMaker = query
}

// learn keeps own as the tables of lastMaker's every run, when it is a
// sameTmpEveryRun statement and ran alone since the session read before.
func (c *sampleConn) learn(makersSince int, own [2]float64) {
	if makersSince != 1 || !sameTmpEveryRun[c.lastMaker] {
		return
	}
	if c.learnt == nil {
		c.learnt = map[string][2]float64{}
	}
	c.learnt[c.lastMaker] = own
}

// takeLearnt returns the learnt statements' tables since the last call.
func (c *sampleConn) takeLearnt() [2]float64 {
	due := c.learntDue
	c.learntDue = [2]float64{}
	return due
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
