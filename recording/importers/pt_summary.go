package importers

import "slices"

// A pt-mysql-summary --save-samples directory: its files are of the other
// kinds (status tables, the deferred status pair, variables, processlist,
// InnoDB status), told by their names; read as a pile of them, named so.

// kindPtSummary is a pt-mysql-summary --save-samples directory, told by its
// files' names.
const kindPtSummary fileKind = "pt-mysql-summary"

// FormatPtSummary is a pt-mysql-summary --save-samples directory.
const FormatPtSummary Format = "pt-mysql-summary"

// summaryParts are pt-mysql-summary --save-samples files that hold no samples.
var summaryParts = map[string]string{
	"mysql-config-file": "pt-mysql-summary's copy of my.cnf", "mysql-databases": "pt-mysql-summary's database list",
	"mysql-master-logs": "pt-mysql-summary's binary log list", "mysql-master-status": "pt-mysql-summary's SHOW MASTER STATUS",
	"mysql-plugins": "pt-mysql-summary's plugin list", "mysql-slave": "pt-mysql-summary's SHOW SLAVE STATUS",
	"mysql-users": "pt-mysql-summary's user count", "mysqld-executables": "pt-mysql-summary's mysqld binary list",
	"mysqld-instances": "pt-mysql-summary's ps lines of mysqld", "mysqldump": "pt-mysql-summary's schema dump",
	"collect.err": "pt-mysql-summary's error log", "encrypted-tables": "pt-mysql-summary's encrypted table list",
	"encrypted-tablespaces": "pt-mysql-summary's encrypted tablespace list", "keyring-plugins": "pt-mysql-summary's keyring plugin list",
	"mysql-roles": "pt-mysql-summary's role list", "mysql-slave-hosts": "pt-mysql-summary's SHOW SLAVE HOSTS",
	"ndb-status": "pt-mysql-summary's NDB status", "tempfile": "pt-mysql-summary's scratch file",
}

// summarySamples are the pt-mysql-summary --save-samples files that hold samples.
var summarySamples = []string{"mysql-status", "mysql-status-defer", "mysql-variables", "mysql-processlist", "innodb-status"}

func isSummaryName(name string) bool {
	_, part := summaryParts[name]
	return part || slices.Contains(summarySamples, name)
}
