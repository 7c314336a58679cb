package infer

import (
	"github.com/mytop-go/mytop-go/snapshot"
)

// IsWriter reports a statement that changes data or tables: the row writers
// (INSERT, REPLACE, UPDATE, DELETE, LOAD DATA/XML) and the statements that
// rebuild or change tables (ALTER, CREATE, DROP, TRUNCATE, RENAME, OPTIMIZE,
// REPAIR). It is the one answer to "is this statement a writer" for every
// rule: a session writing is never taken for a backup reading, and a writer's
// KILL may roll back.
func IsWriter(q string) bool {
	switch snapshot.StatementVerb(q) {
	case "INSERT", "REPLACE", "UPDATE", "DELETE", "LOAD", "ALTER", "CREATE", "DROP", "TRUNCATE", "RENAME",
		"OPTIMIZE", "REPAIR":
		return true
	}
	return false
}
