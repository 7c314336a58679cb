package infer

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// KillRefusal says why a thread must never be killed from the monitor, or ""
// when it may be. Every kill key (single, by filter, root blocker) and the
// live source's KILL ask this one function: the server's own threads
// (InnoDB, the event scheduler, replication, delayed inserts, MySQL's
// internal mysql.session) and the administration sessions of managed
// databases (RDS, Azure, Cloud SQL), whose loss breaks the service itself.
func KillRefusal(p *snapshot.Process) string {
	if p == nil {
		return ""
	}
	user := strings.ToLower(strings.TrimSpace(p.User))
	switch user {
	case "system user", "event_scheduler", "delayed", "mysql.session", "mysql.sys":
		return "a thread of the server itself (" + p.User + ")"
	case "rdsadmin", "rdsrepladmin", "azure_superuser", "cloudsqladmin":
		return "the cloud provider's administration session (" + p.User + ")"
	}
	switch strings.ToLower(strings.TrimSpace(p.Command)) {
	case "daemon":
		return "a thread of the server itself"
	case "binlog dump", "binlog dump gtid", "slave_io", "slave_sql", "slave_worker", "register slave", "table dump":
		return "a replication thread (" + p.Command + ")"
	case "delayed insert":
		return "a delayed-insert handler"
	}
	return ""
}
