package visibility

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestFixNamesTheGrantForEachBlindSpot(t *testing.T) {
	maria := Account{User: "'w'@'%'", Flavor: snapshot.FlavorMariaDB, Version: "10.11.19-MariaDB"}
	oldMaria := Account{User: "'w'@'%'", Flavor: snapshot.FlavorMariaDB, Version: "10.4.30-MariaDB"}
	mysql8 := Account{User: "'w'@'%'", Flavor: snapshot.FlavorMySQL, Version: "8.4.3"}
	rds := mysql8
	rds.Managed = managedRDS
	cases := []struct {
		name string
		spot Spot
		acct Account
		want string
	}{
		{"process", Spot{Source: "processlist", Why: "only your own threads are visible: needs the PROCESS privilege"}, maria,
			"GRANT PROCESS ON *.* TO 'w'@'%';"},
		{"replica on 10.11", Spot{Source: "replica", Why: "needs the SLAVE MONITOR (or REPLICATION CLIENT) privilege"}, maria,
			"GRANT SLAVE MONITOR ON *.* TO 'w'@'%';"},
		{"replica on 10.4", Spot{Source: "replica", Why: "needs the SLAVE MONITOR (or REPLICATION CLIENT) privilege"}, oldMaria,
			"GRANT REPLICATION CLIENT ON *.* TO 'w'@'%';"},
		{"replica on MySQL", Spot{Source: "replica", Why: "needs the REPLICATION CLIENT privilege"}, mysql8,
			"GRANT REPLICATION CLIENT ON *.* TO 'w'@'%';"},
		{"pfs off", Spot{Source: "statements", Why: "performance_schema is off (MariaDB's default): …"}, maria,
			"add performance_schema=ON under [mysqld] in my.cnf and restart the server"},
		{"pfs denied", Spot{Source: "statements", Why: "cannot read performance_schema.events_statements_summary_by_digest (needs SELECT on performance_schema): denied"}, maria,
			"GRANT SELECT ON performance_schema.* TO 'w'@'%';"},
		{"consumer off", Spot{Source: "statements", Why: "statement digests are switched off: UPDATE performance_schema.setup_consumers SET ENABLED = 'YES' WHERE NAME = 'statements_digest' (or x)"}, maria,
			"UPDATE performance_schema.setup_consumers SET ENABLED = 'YES' WHERE NAME = 'statements_digest' (or x)"},
		{"remote host", Spot{Source: "host", Why: "server is on another machine: per-thread CPU and I/O need it local"}, maria,
			"run mytop-go on the server's own host, connected over its socket"},
		{"remote host, managed", Spot{Source: "host", Why: "server is on another machine"}, rds, ""},
		{"a tunnel", Spot{Source: "threads", Why: "not local: 127.0.0.1:3307 is held by ssh (pid 10), not by a mysqld (a tunnel or a forwarder)"}, maria,
			"run mytop-go on the server's own host, connected over its socket"},
		{"another user's mysqld", Spot{Source: "threads", Why: "not local: cannot see which process holds /run/mysqld/mysqld.sock (another user's /proc/<pid>/fd needs root or the server's user); …"}, maria,
			"run mytop-go as root or as mysqld's user, so it can see which process holds the server's socket"},
		{"lock waits on MariaDB", Spot{Source: "locks", Why: "cannot read lock waits: you need the PROCESS privilege(s)"}, maria,
			"GRANT PROCESS ON *.* TO 'w'@'%';"},
		{"lock waits on MySQL", Spot{Source: "locks", Why: "cannot read lock waits: SELECT command denied"}, mysql8,
			"GRANT SELECT ON performance_schema.* TO 'w'@'%';"},
		{"kill on 10.11", Spot{Source: srcKill}, maria, "GRANT CONNECTION ADMIN ON *.* TO 'w'@'%';"},
		{"kill on 10.4", Spot{Source: srcKill}, oldMaria, "GRANT SUPER ON *.* TO 'w'@'%';"},
		{"kill on MySQL 8", Spot{Source: srcKill}, mysql8, "GRANT CONNECTION_ADMIN ON *.* TO 'w'@'%';"},
		{"kill on RDS", Spot{Source: srcKill}, rds,
			"GRANT EXECUTE ON PROCEDURE mysql.rds_kill TO 'w'@'%'; GRANT EXECUTE ON PROCEDURE mysql.rds_kill_query TO 'w'@'%';"},
		{"kill query on RDS, rds_kill granted", Spot{Source: srcKill, Why: managedKillGap([]string{"rds_kill"})}, rds,
			"GRANT EXECUTE ON PROCEDURE mysql.rds_kill_query TO 'w'@'%';"},
		{"kill connection on Azure, az_kill_query granted", Spot{Source: srcKill, Why: managedKillGap([]string{"az_kill_query"})}, mysql8,
			"GRANT EXECUTE ON PROCEDURE mysql.az_kill TO 'w'@'%';"},
		{"account limits", Spot{Source: "account_limits", Why: "cannot read the accounts' MAX_USER_CONNECTIONS (needs SELECT on mysql.user): denied"}, maria,
			"GRANT SELECT (User, Host, max_user_connections) ON mysql.user TO 'w'@'%';"},
		{"unknown refusal", Spot{Source: "innodb_size", Why: "no InnoDB tablespace list: boom"}, maria, ""},
	}
	for _, c := range cases {
		if got := fixFor(c.spot, c.acct); got != c.want {
			t.Errorf("%s: fix %q, want %q", c.name, got, c.want)
		}
	}
}

// Granted one procedure of a managed service's pair, the kill it leaves out
// is named; both, or a privilege, and nothing is.
func TestManagedKillGap(t *testing.T) {
	for _, c := range []struct {
		procs []string
		want  string
	}{
		{[]string{"rds_kill", "rds_kill_query"}, ""},
		{[]string{"az_kill_query", "az_kill"}, ""},
		{[]string{"rds_kill"}, "KILL QUERY (k, X) needs EXECUTE on mysql.rds_kill_query: only mysql.rds_kill may be run"},
		{[]string{"az_kill"}, "KILL QUERY (k, X) needs EXECUTE on mysql.az_kill_query: only mysql.az_kill may be run"},
		{[]string{"rds_kill_query"}, "KILL CONNECTION (K, Ctrl-X, the lock view) needs EXECUTE on mysql.rds_kill: only mysql.rds_kill_query may be run"},
		{nil, "KILL of another user's session needs SUPER or CONNECTION ADMIN (or a managed service's kill procedures)"},
	} {
		if got := managedKillGap(c.procs); got != c.want {
			t.Errorf("managedKillGap(%q) = %q, want %q", c.procs, got, c.want)
		}
	}
}

func TestQuoteAccount(t *testing.T) {
	for in, want := range map[string]string{
		"watcher@localhost": "'watcher'@'localhost'",
		"a@b@%":             "'a@b'@'%'",
		"nohost":            "'nohost'",
	} {
		if got := quoteAccount(in); got != want {
			t.Errorf("quoteAccount(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestVersionAtLeast(t *testing.T) {
	cases := []struct {
		v    string
		want []int
		ok   bool
	}{
		{"10.11.19-MariaDB-0+deb12u1", []int{10, 5, 9}, true},
		{"10.5.9-MariaDB", []int{10, 5, 9}, true},
		{"10.5.8-MariaDB", []int{10, 5, 9}, false},
		{"8.0.36", []int{8, 0, 0}, true},
		{"5.7.44-log", []int{8, 0, 0}, false},
		{"26.7.0", []int{8, 0, 0}, true},
		{"", []int{5, 0, 0}, false},
	}
	for _, c := range cases {
		if got := versionAtLeast(c.v, c.want[0], c.want[1], c.want[2]); got != c.ok {
			t.Errorf("versionAtLeast(%q, %v) = %v", c.v, c.want, got)
		}
	}
}

func TestManagedFromWhatTheServerSays(t *testing.T) {
	cases := []struct {
		vars  map[string]string
		users []string
		want  string
	}{
		{map[string]string{"basedir": "/rdsdbbin/mysql-8.0.35.R2/"}, nil, managedRDS},
		{map[string]string{"aurora_version": "3.05.2", "basedir": "/rdsdbbin/oscar/"}, nil, managedAurora},
		{map[string]string{"version_comment": "MySQL Community Server - Azure"}, nil, managedAzure},
		{map[string]string{"basedir": "/usr/"}, []string{"app", "cloudsqladmin"}, managedCloudSQL},
		{map[string]string{"basedir": "/usr/"}, []string{"azure_superuser"}, managedAzure},
		{map[string]string{"basedir": "/usr/", "version_comment": "Debian 12"}, []string{"root"}, ""},
	}
	for _, c := range cases {
		if got := managedFrom(c.vars, c.users); got != c.want {
			t.Errorf("managedFrom(%v, %v) = %q, want %q", c.vars, c.users, got, c.want)
		}
	}
}
