package infer

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestKillRefusal(t *testing.T) {
	for _, tt := range []struct {
		user, command string
		refuse        bool
	}{
		{"app", "Query", false},
		{"root", "Sleep", false},
		{"system user", "Connect", true},    // a replica's I/O thread, MySQL 5.x
		{"system user", "Slave_SQL", true},  // MariaDB
		{"system user", "", true},           // InnoDB background, Galera applier
		{"event_scheduler", "Daemon", true}, // the event scheduler
		{"DELAYED", "Delayed insert", true}, // INSERT DELAYED handler
		{"app", "Delayed insert", true},     // whatever user it shows
		{"mysql.session", "Sleep", true},    // MySQL 8 internal session
		{"repl", "Binlog Dump GTID", true},  // a replica's dump thread on the primary
		{"repl", "Binlog Dump", true},       // same, without GTID
		{"app", "Slave_worker", true},       // a parallel applier
		{"rdsadmin", "Sleep", true},         // Amazon RDS
		{"azure_superuser", "Query", true},  // Azure Database
		{"cloudsqladmin", "Query", true},    // Google Cloud SQL
		{"rdsadmin_app", "Query", false},    // only the exact account
		{"unknown", "Daemon", true},         // a daemon thread of any user
	} {
		got := KillRefusal(&snapshot.Process{ID: 7, User: tt.user, Command: tt.command})
		if (got != "") != tt.refuse {
			t.Errorf("%s/%s: refusal %q, want refused=%v", tt.user, tt.command, got, tt.refuse)
		}
	}
}
