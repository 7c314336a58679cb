package collectors

import (
	"context"
	"database/sql"
	"regexp"
	"strconv"

	"github.com/mytop-go/mytop-go/snapshot"
)

// readLoginLimit is how many wrong passwords in a row the server allows the
// monitor's account before it blocks it: MariaDB's max_password_errors
// (10.4+, global; its maximum means none), MySQL's FAILED_LOGIN_ATTEMPTS
// (8.0.19+, per account, which SHOW CREATE USER shows the account for
// itself without a privilege). 0: none, or the server does not say. Read at
// each login, so a limit set since is known before the next refusal.
func readLoginLimit(ctx context.Context, conn *sql.Conn, flavor string) int {
	if flavor == snapshot.FlavorMariaDB {
		var n uint64
		if err := conn.QueryRowContext(ctx, tag+"SELECT @@max_password_errors").Scan(&n); err != nil || n >= 1<<32-1 {
			return 0
		}
		return int(n)
	}
	var stmt string
	if err := conn.QueryRowContext(ctx, tag+"SHOW CREATE USER CURRENT_USER()").Scan(&stmt); err != nil {
		return 0
	}
	return failedLoginAttempts(stmt)
}

var failedLoginAttemptsRe = regexp.MustCompile(`(?i)\bFAILED_LOGIN_ATTEMPTS\s+(\d+)`)

// failedLoginAttempts reads FAILED_LOGIN_ATTEMPTS off a CREATE USER
// statement (0: none).
func failedLoginAttempts(createUser string) int {
	m := failedLoginAttemptsRe.FindStringSubmatch(createUser)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
