package collectors

import (
	"context"
	"database/sql"
	"fmt"
)

// Errors a plain KILL gets from a user without SUPER / CONNECTION ADMIN, and
// a CALL of a procedure this server does not have.
const (
	errKillDenied    = 1095 // "You are not owner of thread N"
	errNoSuchRoutine = 1305
)

// managedKills are the procedures managed services give their users in
// place of KILL, in the order tried: Amazon RDS and Aurora
// (mysql.rds_kill, mysql.rds_kill_query), Azure Database for MySQL
// (mysql.az_kill, mysql.az_kill_query). Each takes the thread id.
var managedKills = []struct{ connection, query string }{
	{"mysql.rds_kill", "mysql.rds_kill_query"},
	{"mysql.az_kill", "mysql.az_kill_query"},
}

// killStatement runs KILL, and when the server refuses it for want of a
// privilege, the managed service's kill procedure; the first refusal is
// returned when the server has none.
func killStatement(ctx context.Context, c *sql.Conn, threadID int64, connection bool) error {
	what := "QUERY"
	if connection {
		what = "CONNECTION"
	}
	_, err := c.ExecContext(ctx, fmt.Sprintf("%sKILL %s %d", tag, what, threadID))
	if n := serverErrno(err); n != errKillDenied && n != errSpecificAccessDenied {
		return err
	}
	for _, p := range managedKills {
		proc := p.query
		if connection {
			proc = p.connection
		}
		_, callErr := c.ExecContext(ctx, fmt.Sprintf("%sCALL %s(%d)", tag, proc, threadID))
		if !unusableRoutine(callErr) {
			return callErr
		}
	}
	return err
}

// errProcedureDenied is "execute command denied to user … for routine …".
const errProcedureDenied = 1370

// unusableRoutine is whether a CALL failed because the procedure is not
// there or not ours to run, so the next one may be tried.
func unusableRoutine(err error) bool {
	switch serverErrno(err) {
	case errNoSuchRoutine, errProcedureDenied, errSpecificAccessDenied:
		return true
	}
	return false
}
