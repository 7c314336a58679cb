package collectors

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// probe fills the capabilities with a handful of cheap statements, once per
// connection. Only transport errors are returned: a refused statement is an
// answer that tells a capability is missing.
func (c *Capabilities) probe(ctx context.Context, q queryer, ownID int64) error {
	c.reprobe = false
	q = transientNoter{q, &c.reprobe}
	steps := []func(context.Context, queryer, int64) error{
		c.probeProcesslist, c.probeStatements, c.probeInnoDB, c.probeReplica, c.probeReplicaWorkers, c.probeExplain,
	}
	for _, step := range steps {
		if err := step(ctx, q, ownID); err != nil {
			return err
		}
	}
	return nil
}

// probeProcesslist prefers performance_schema.processlist (no global mutex,
// no temporary table; MySQL 8.0.22+) when it is readable and enabled, else
// SHOW FULL PROCESSLIST; and notes which detail columns
// information_schema.PROCESSLIST adds.
func (c *Capabilities) probeProcesslist(ctx context.Context, q queryer, _ int64) error {
	c.Processlist = sourceShow
	t, err := queryTable(ctx, q, "SELECT @@performance_schema")
	if err := transportError(err); err != nil {
		return err
	}
	if err == nil && len(t.rows) == 1 && t.rows[0][0].String == "1" {
		_, err := queryTable(ctx, q, "SELECT ID FROM performance_schema.processlist LIMIT 1")
		if err := transportError(err); err != nil {
			return err
		}
		if err == nil {
			c.Processlist = sourcePerfSchema
		}
	}
	t, err = queryTable(ctx, q, "SELECT COLUMN_NAME FROM information_schema.COLUMNS"+
		" WHERE TABLE_SCHEMA = 'information_schema' AND TABLE_NAME = 'PROCESSLIST'"+
		" AND COLUMN_NAME IN ('TIME_MS', 'EXAMINED_ROWS', 'ROWS_EXAMINED')")
	if err := transportError(err); err != nil {
		return err
	}
	c.ProcesslistDetail = nil
	if err == nil {
		for _, r := range t.rows {
			c.ProcesslistDetail = append(c.ProcesslistDetail, strings.ToUpper(r[0].String))
		}
	}
	return nil
}

// probeStatements checks that performance_schema is on and records running
// statements (MySQL's default; MariaDB needs the consumer switched on).
func (c *Capabilities) probeStatements(ctx context.Context, q queryer, _ int64) error {
	t, err := queryTable(ctx, q, "SELECT ENABLED FROM performance_schema.setup_consumers"+
		" WHERE NAME = 'events_statements_current' AND @@performance_schema = 1")
	if err := transportError(err); err != nil {
		return err
	}
	c.StatementsCurrent = err == nil && len(t.rows) == 1 && t.rows[0][0].String == "YES"
	return nil
}

// probeInnoDB runs SHOW ENGINE INNODB STATUS once: it needs PROCESS, so it
// also tells whether this user sees other users' threads.
func (c *Capabilities) probeInnoDB(ctx context.Context, q queryer, _ int64) error {
	_, err := queryTable(ctx, q, "SHOW ENGINE INNODB STATUS")
	if err := transportError(err); err != nil {
		return err
	}
	c.InnoDB, c.Process = err == nil, err == nil
	// Any refusal other than a missing privilege (InnoDB disabled, say) leaves
	// PROCESS unknown, so ask the grants.
	if err != nil && serverErrno(err) != errSpecificAccessDenied {
		return c.probeProcessGrant(ctx, q)
	}
	return nil
}

// probeProcessGrant reads SHOW GRANTS when InnoDB cannot tell.
func (c *Capabilities) probeProcessGrant(ctx context.Context, q queryer) error {
	t, err := queryTable(ctx, q, "SHOW GRANTS")
	if err := transportError(err); err != nil {
		return err
	}
	if err == nil {
		for _, r := range t.rows {
			c.Process = c.Process || grantsProcess(r[0].String)
		}
	}
	return nil
}

// grantsProcess reports whether one SHOW GRANTS line gives PROCESS globally.
func grantsProcess(line string) bool {
	up := strings.ToUpper(line)
	if !strings.Contains(up, " ON *.* ") {
		return false
	}
	return strings.Contains(up, "ALL PRIVILEGES") || strings.Contains(up, "PROCESS")
}

// replicaStatements are tried in order: MariaDB's statements that list every
// named connection first (SHOW REPLICA STATUS there shows only the default
// one), then the spellings MySQL takes, where every channel has its row.
var replicaStatements = []string{
	"SHOW ALL REPLICAS STATUS", "SHOW ALL SLAVES STATUS", "SHOW REPLICA STATUS", "SHOW SLAVE STATUS",
}

// probeReplica finds which spelling of the replica status statement the
// server takes and whether the user may run it.
func (c *Capabilities) probeReplica(ctx context.Context, q queryer, _ int64) error {
	c.ReplicaStatement, c.ReplicaUnavailable = "", ""
	for _, stmt := range replicaStatements {
		_, err := queryTable(ctx, q, stmt)
		if err := transportError(err); err != nil {
			return err
		}
		switch serverErrno(err) {
		case 0:
			c.ReplicaStatement = stmt
			return nil
		case errParse:
			continue
		case errSpecificAccessDenied:
			c.ReplicaUnavailable = c.replicaPrivilegeReason()
			return nil
		default:
			c.ReplicaUnavailable = fmt.Sprintf("%s failed: %v", stmt, err)
			return nil
		}
	}
	c.ReplicaUnavailable = "this server has no SHOW REPLICA/SLAVE STATUS"
	return nil
}

// probeReplicaWorkers checks MySQL's applier worker table. MariaDB is not
// asked: its performance_schema is off by default and SHOW ALL REPLICAS
// STATUS already says what this would add.
func (c *Capabilities) probeReplicaWorkers(ctx context.Context, q queryer, _ int64) error {
	c.ReplicaWorkers = false
	if c.Flavor == snapshot.FlavorMariaDB || c.ReplicaStatement == "" {
		return nil
	}
	_, err := queryTable(ctx, q, "SELECT CHANNEL_NAME FROM performance_schema.replication_applier_status_by_worker LIMIT 1")
	if err := transportError(err); err != nil {
		return err
	}
	c.ReplicaWorkers = err == nil
	return nil
}

func (c *Capabilities) replicaPrivilegeReason() string {
	if c.Flavor == snapshot.FlavorMariaDB {
		return "needs the SLAVE MONITOR (or REPLICATION CLIENT) privilege"
	}
	return "needs the REPLICATION CLIENT privilege"
}

// probeExplain asks for the plan of our own (idle) connection: a syntax error
// means the statement does not exist, any other answer that it does.
func (c *Capabilities) probeExplain(ctx context.Context, q queryer, ownID int64) error {
	candidates := []string{explainForConnection, explainShowFor}
	if c.Flavor == snapshot.FlavorMariaDB {
		candidates = []string{explainShowFor, explainForConnection}
	}
	for _, method := range candidates {
		_, err := queryTable(ctx, q, fmt.Sprintf("%s %d", method, ownID))
		if err := transportError(err); err != nil {
			return err
		}
		if serverErrno(err) != errParse {
			c.Explain = method
			return nil
		}
	}
	c.Explain = explainStatement
	return nil
}

// transportError returns err when it is not an answer from the server, i.e.
// the connection failed or timed out.
func transportError(err error) error {
	if err == nil || serverErrno(err) != 0 {
		return nil
	}
	return err
}

// transientNoter notes a probe statement that failed for a reason that says
// nothing about the capability (killed, temporary disk full, out of time):
// the session's capabilities are then probed again shortly instead of being
// taken as missing for the session's life.
type transientNoter struct {
	queryer
	transient *bool
}

func (n transientNoter) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	rows, err := n.queryer.QueryContext(ctx, query, args...)
	if transientRefusal(err) {
		*n.transient = true
	}
	return rows, err
}

// transientRefusal reports a server error that is a failure of this one
// statement, not an answer about what the server offers.
func transientRefusal(err error) bool {
	switch serverErrno(err) {
	case errQueryInterrupted, errRecordFileFull, errDiskFull, errLockWaitTimeout, errDeadlock,
		errStatementTimeMariaDB, errStatementTimeMySQL, errServerShutdown, errOutOfMemory, errOutOfSortMemory,
		errCantCreateThread:
		return true
	}
	return false
}
