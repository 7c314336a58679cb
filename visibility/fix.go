package visibility

import (
	"fmt"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Account is who the monitor is on the server: what a GRANT must name.
type Account struct {
	// User is CURRENT_USER() quoted for a GRANT: 'watcher'@'%'.
	User    string `json:"user"`
	Flavor  string `json:"flavor"`
	Version string `json:"version"`
	// Managed names the cloud service when the server says it is one
	// (rds, aurora, azure, cloudsql), else "".
	Managed string `json:"managed,omitempty"`
}

// grantee is the account as a GRANT names it, or a placeholder when the
// server did not say.
func (a Account) grantee() string {
	if a.User == "" {
		return "'monitor_user'@'host'"
	}
	return a.User
}

// quoteAccount turns CURRENT_USER()'s user@host into 'user'@'host'.
func quoteAccount(current string) string {
	i := strings.LastIndex(current, "@")
	if i < 0 {
		return "'" + current + "'"
	}
	return fmt.Sprintf("'%s'@'%s'", current[:i], current[i+1:])
}

// fixFor is the statement or setting that ends one blind spot, from what
// the server said; "" when no grant or setting can.
func fixFor(s Spot, a Account) string {
	why := s.Why
	switch {
	case strings.Contains(why, "PROCESS privilege"), s.Source == string(snapshot.CollectorLocks) && strings.Contains(why, "PROCESS"):
		return fmt.Sprintf("GRANT PROCESS ON *.* TO %s;", a.grantee())
	case s.Source == string(snapshot.CollectorReplica) && strings.Contains(why, "privilege"):
		return fmt.Sprintf("GRANT %s ON *.* TO %s;", replicaPrivilege(a), a.grantee())
	case strings.HasPrefix(why, "performance_schema is off"):
		return "add performance_schema=ON under [mysqld] in my.cnf and restart the server"
	case strings.Contains(why, "needs SELECT on performance_schema"):
		return fmt.Sprintf("GRANT SELECT ON performance_schema.* TO %s;", a.grantee())
	case strings.Contains(why, "needs SELECT on mysql.user"):
		// The columns the collector reads: the whole table would hand the
		// monitoring account every password hash.
		return fmt.Sprintf("GRANT SELECT (User, Host, max_user_connections) ON mysql.user TO %s;", a.grantee())
	case s.Source == srcKill && strings.Contains(why, "needs EXECUTE on mysql."):
		_, proc, _ := strings.Cut(why, "needs EXECUTE on ")
		proc, _, _ = strings.Cut(proc, ":")
		return fmt.Sprintf("GRANT EXECUTE ON PROCEDURE %s TO %s;", proc, a.grantee())
	case strings.Contains(why, "switched off: UPDATE performance_schema.setup_consumers"):
		_, stmt, _ := strings.Cut(why, "switched off: ")
		return stmt
	case strings.HasPrefix(why, "not local: ") && strings.Contains(why, "needs root or the server's user"):
		return "run mytop-go as root or as mysqld's user, so it can see which process holds the server's socket"
	case strings.Contains(why, "another machine"), strings.HasPrefix(why, "not local: "):
		// A tunnel, a forwarder or a container in between: this machine's
		// figures are not the server's.
		return machineFix(a)
	case s.Source == string(snapshot.CollectorLocks):
		return fmt.Sprintf("GRANT SELECT ON performance_schema.* TO %s;", a.grantee())
	case s.Source == srcMetadataLocks:
		return metadataLockFix(a)
	case s.Source == srcKill:
		return killFix(a)
	}
	return ""
}

// replicaPrivilege is the privilege SHOW REPLICA STATUS needs: MariaDB
// 10.5.9 split SLAVE MONITOR out of REPLICATION CLIENT; MySQL keeps
// REPLICATION CLIENT.
func replicaPrivilege(a Account) string {
	if a.Flavor == snapshot.FlavorMariaDB && versionAtLeast(a.Version, 10, 5, 9) {
		return "SLAVE MONITOR"
	}
	return "REPLICATION CLIENT"
}

func machineFix(a Account) string {
	if a.Managed != "" {
		return "" // a managed server's host is not reachable at all
	}
	return "run mytop-go on the server's own host, connected over its socket"
}

func metadataLockFix(a Account) string {
	if a.Flavor == snapshot.FlavorMariaDB {
		return "INSTALL SONAME 'metadata_lock_info'; (and PROCESS to read it)"
	}
	return fmt.Sprintf("GRANT SELECT ON performance_schema.* TO %s; and enable the wait/lock/metadata/sql/mdl instrument", a.grantee())
}

func killFix(a Account) string {
	switch {
	case a.Managed == "rds" || a.Managed == "aurora":
		return procedureGrants(killProcedures[0], a)
	case a.Managed == "azure":
		return procedureGrants(killProcedures[1], a)
	case a.Flavor == snapshot.FlavorMariaDB && versionAtLeast(a.Version, 10, 5, 2):
		return fmt.Sprintf("GRANT CONNECTION ADMIN ON *.* TO %s;", a.grantee())
	case a.Flavor != snapshot.FlavorMariaDB && versionAtLeast(a.Version, 8, 0, 0):
		return fmt.Sprintf("GRANT CONNECTION_ADMIN ON *.* TO %s;", a.grantee())
	}
	return fmt.Sprintf("GRANT SUPER ON *.* TO %s;", a.grantee())
}

// procedureGrants grants both procedures of a managed service's kill: K
// ends a session through one, k and X a statement through the other.
func procedureGrants(p killProcedure, a Account) string {
	return fmt.Sprintf("GRANT EXECUTE ON PROCEDURE mysql.%s TO %s; GRANT EXECUTE ON PROCEDURE mysql.%s TO %s;",
		p.connection, a.grantee(), p.query, a.grantee())
}

// versionAtLeast compares a server version string
// ("10.11.19-MariaDB-0+deb12u1", "26.7.0") with major.minor.patch.
func versionAtLeast(v string, major, minor, patch int) bool {
	return snapshot.ParseVersion(v).AtLeast(major, minor, patch)
}
