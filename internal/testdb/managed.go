package testdb

import (
	"fmt"
	"testing"
)

// AddRDSKillUser gives the server mysql.rds_kill and mysql.rds_kill_query as
// RDS ships them (SQL SECURITY DEFINER, defined by root) and creates
// user@localhost with password pw, PROCESS and EXECUTE on both, but neither
// SUPER nor CONNECTION ADMIN: a monitoring user on RDS, whose own KILL of
// another user's session is refused.
func (s *Server) AddRDSKillUser(t testing.TB, user, pw string) {
	t.Helper()
	account := fmt.Sprintf("'%s'@'localhost'", user)
	s.Exec(t,
		"CREATE PROCEDURE IF NOT EXISTS mysql.rds_kill(IN thread BIGINT) SQL SECURITY DEFINER BEGIN KILL CONNECTION thread; END",
		"CREATE PROCEDURE IF NOT EXISTS mysql.rds_kill_query(IN thread BIGINT) SQL SECURITY DEFINER BEGIN KILL QUERY thread; END",
		fmt.Sprintf("CREATE USER %s IDENTIFIED BY '%s'", account, pw),
		"GRANT PROCESS ON *.* TO "+account,
		"GRANT EXECUTE ON PROCEDURE mysql.rds_kill TO "+account,
		"GRANT EXECUTE ON PROCEDURE mysql.rds_kill_query TO "+account)
}
