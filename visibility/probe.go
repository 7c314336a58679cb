package visibility

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Probe asks the server what the collectors only read when something
// happens (who may kill, where metadata locks come from) and who the
// monitor is. Only a failed connection is an error: a refusal is an answer.
func Probe(ctx context.Context, db *sql.DB) (Account, []Spot, error) {
	var a Account
	var current string
	if err := db.QueryRowContext(ctx, "SELECT CURRENT_USER(), VERSION()").Scan(&current, &a.Version); err != nil {
		return a, nil, err
	}
	a.User = quoteAccount(current)
	a.Flavor = snapshot.FlavorMySQL
	if strings.Contains(a.Version, "MariaDB") {
		a.Flavor = snapshot.FlavorMariaDB
	}
	var spots []Spot
	kill, err := probeKill(ctx, db)
	if err != nil {
		return a, nil, err
	}
	if kill != "" {
		spots = append(spots, Spot{Source: srcKill, Why: kill})
	}
	rows, err := probeRowLocks(ctx, db, a.Flavor)
	if err != nil {
		return a, nil, err
	}
	if rows != "" {
		spots = append(spots, Spot{Source: string(snapshot.CollectorLocks), Why: rows})
	}
	mdl, err := probeMetadataLocks(ctx, db, a.Flavor)
	if err != nil {
		return a, nil, err
	}
	if mdl != "" {
		spots = append(spots, Spot{Source: srcMetadataLocks, Why: mdl})
	}
	return a, spots, nil
}

// killPrivileges end another user's session (MariaDB 10.5.2+ split
// CONNECTION ADMIN out of SUPER; MySQL 8 has CONNECTION_ADMIN).
var killPrivileges = []string{"SUPER", "CONNECTION ADMIN", "CONNECTION_ADMIN"}

// killProcedure is a managed service's pair of kill procedures, granted to
// its users: one ends a session (K, Ctrl-X, the lock view), the other a
// statement (k, X).
type killProcedure struct{ connection, query string }

// killProcedures are RDS's (and Aurora's), then Azure's.
var killProcedures = []killProcedure{{"rds_kill", "rds_kill_query"}, {"az_kill", "az_kill_query"}}

// probeKill says why other users' sessions cannot be killed, or "".
func probeKill(ctx context.Context, db *sql.DB) (string, error) {
	privs, err := column(ctx, db, "SELECT PRIVILEGE_TYPE FROM information_schema.USER_PRIVILEGES")
	if err != nil {
		return "", err
	}
	for _, p := range privs {
		for _, k := range killPrivileges {
			if strings.EqualFold(p, k) {
				return "", nil
			}
		}
	}
	var names []string
	for _, p := range killProcedures {
		names = append(names, p.connection, p.query)
	}
	// ROUTINES lists only the routines the account may use.
	procs, err := column(ctx, db, "SELECT ROUTINE_NAME FROM information_schema.ROUTINES"+
		" WHERE ROUTINE_SCHEMA = 'mysql' AND ROUTINE_NAME IN ('"+strings.Join(names, "','")+"')")
	if err != nil {
		return "", err
	}
	return managedKillGap(procs), nil
}

// managedKillGap says which kill the procedures the account may run leave
// out, or "" when one service's pair is complete.
func managedKillGap(procs []string) string {
	for _, p := range killProcedures {
		conn, query := slices.Contains(procs, p.connection), slices.Contains(procs, p.query)
		switch {
		case conn && query:
			return ""
		case conn:
			return fmt.Sprintf("KILL QUERY (k, X) needs EXECUTE on mysql.%s: only mysql.%s may be run", p.query, p.connection)
		case query:
			return fmt.Sprintf("KILL CONNECTION (K, Ctrl-X, the lock view) needs EXECUTE on mysql.%s: only mysql.%s may be run", p.connection, p.query)
		}
	}
	return "KILL of another user's session needs SUPER or CONNECTION ADMIN (or a managed service's kill procedures)"
}

// probeRowLocks says why the lock waits cannot be read, or "": the locks
// collector reads them only while something waits, so an idle server would
// never tell.
func probeRowLocks(ctx context.Context, db *sql.DB, flavor string) (string, error) {
	stmt := "SELECT COUNT(*) FROM performance_schema.data_lock_waits"
	if flavor == snapshot.FlavorMariaDB {
		stmt = "SELECT COUNT(*) FROM information_schema.INNODB_LOCK_WAITS"
	}
	return refusal(ctx, db, stmt, "cannot read lock waits: ")
}

// refusal runs stmt and returns prefix and the server's refusal, "" when it
// ran; only a failed connection is an error. The lock tables are counted,
// not read with LIMIT 0: MariaDB checks PROCESS only when it fills them.
func refusal(ctx context.Context, db *sql.DB, stmt, prefix string) (string, error) {
	rows, err := db.QueryContext(ctx, stmt)
	if err == nil {
		return "", rows.Close()
	}
	var me *mysql.MySQLError
	if !errors.As(err, &me) {
		return "", err
	}
	return prefix + me.Message, nil
}

// probeMetadataLocks says why metadata lock holders cannot be read, or "".
func probeMetadataLocks(ctx context.Context, db *sql.DB, flavor string) (string, error) {
	stmt := "SELECT * FROM performance_schema.metadata_locks LIMIT 0"
	if flavor == snapshot.FlavorMariaDB {
		stmt = "SELECT * FROM information_schema.METADATA_LOCK_INFO LIMIT 0"
	}
	rows, err := db.QueryContext(ctx, stmt)
	if err == nil {
		return "", rows.Close()
	}
	var me *mysql.MySQLError
	if !errors.As(err, &me) {
		return "", err
	}
	if flavor == snapshot.FlavorMariaDB && me.Number == 1109 {
		return "the metadata_lock_info plugin is not loaded", nil
	}
	return "cannot read metadata locks: " + me.Message, nil
}

// column reads the first column of every row; a refused statement reads as
// no rows.
func column(ctx context.Context, db *sql.DB, stmt string) ([]string, error) {
	rows, err := db.QueryContext(ctx, stmt)
	if err != nil {
		var me *mysql.MySQLError
		if errors.As(err, &me) {
			return nil, nil
		}
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v sql.NullString
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v.String)
	}
	return out, rows.Err()
}
