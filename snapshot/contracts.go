package snapshot

// CollectorName names one source of a Snapshot's parts. It keys
// Snapshot.Collectors; live collectors, importers, analyzers and panels all
// use these constants, so a capture's gaps read the same as a live outage.
type CollectorName string

// Collector names, declared once.
const (
	CollectorProcesslist CollectorName = "processlist"
	CollectorStatus      CollectorName = "status"
	CollectorVariables   CollectorName = "variables"
	CollectorInnoDB      CollectorName = "innodb"
	CollectorReplica     CollectorName = "replica"
	CollectorExplain     CollectorName = "explain"
	CollectorHost        CollectorName = "host"
	// CollectorThreads is mysqld's per-thread CPU and I/O from /proc.
	CollectorThreads CollectorName = "threads"
	// CollectorLocks is who waits for whom (Snapshot.Locks).
	CollectorLocks CollectorName = "locks"
	// CollectorInnoDBSize is the size of InnoDB's tablespace files.
	CollectorInnoDBSize CollectorName = "innodb_size"
	// CollectorStatements is the statement digests (Snapshot.Statements).
	CollectorStatements CollectorName = "statements"
	// CollectorErrorLog is the refused logins the server's error log names
	// (Snapshot.RefusedLogins).
	CollectorErrorLog CollectorName = "errorlog"
)

// Mode says where frames come from; the header shows it, and consumers must
// not behave differently by it.
type Mode string

// Modes.
const (
	ModeLive   Mode = "LIVE"
	ModeReplay Mode = "REPLAY"
	ModeImport Mode = "IMPORT"
)

// CollectorDiskSpace is the free space of the filesystems holding the
// server's files (Snapshot.Filesystems), read with statfs when the server
// runs on this machine.
const CollectorDiskSpace CollectorName = "disk_space"

// CollectorPreparedOwners names the sessions holding prepared statements
// (Snapshot.PreparedOwners).
const CollectorPreparedOwners CollectorName = "prepared_owners"

// CollectorHostCache is the client hosts with connection errors
// (Snapshot.HostErrors), from performance_schema.host_cache.
const CollectorHostCache CollectorName = "host_cache"

// CollectorAccountLimits is the accounts' own MAX_USER_CONNECTIONS
// (Snapshot.AccountLimits), from mysql.user.
const CollectorAccountLimits CollectorName = "account_limits"
