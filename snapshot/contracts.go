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

// CollectorMemory is what holds the server's memory where the server says
// it (Snapshot.Memory): its MEMORY tables and, when performance_schema
// instruments memory, the biggest allocations by event.
const CollectorMemory CollectorName = "memory"

// CollectorPressure is the kernel's pressure stall information
// (Snapshot.Pressure), read when the server runs on this machine.
const CollectorPressure CollectorName = "pressure"

// LoginRefusedReason is why the server refused the monitor's login: a reason the
// monitor does not retry like a network failure (ServerInfo.LoginRefused,
// the reason label of /metrics' mytop_login_refused).
type LoginRefusedReason string

// Login refusals, declared once.
const (
	// LoginAccessDenied is a wrong password or user (1045, 1698): each
	// attempt counts towards the account's limit of password errors.
	LoginAccessDenied LoginRefusedReason = "access_denied"
	// LoginAccountBlocked is MariaDB's account blocked after
	// max_password_errors (4150), until FLUSH PRIVILEGES.
	LoginAccountBlocked LoginRefusedReason = "account_blocked"
	// LoginAccountLocked is MySQL's locked account (3118) or one locked for
	// a while after FAILED_LOGIN_ATTEMPTS (3955).
	LoginAccountLocked LoginRefusedReason = "account_locked"
	// LoginHostBlocked is this client host blocked after max_connect_errors
	// (1129), until FLUSH HOSTS.
	LoginHostBlocked LoginRefusedReason = "host_blocked"
	// LoginHostNotAllowed is an account that does not exist for this
	// client host (1130).
	LoginHostNotAllowed LoginRefusedReason = "host_not_allowed"
	// LoginPasswordExpired is an expired password the client cannot change
	// (1862).
	LoginPasswordExpired LoginRefusedReason = "password_expired"
	// LoginAuthMethod is an authentication method or transport the account
	// needs and the client cannot offer: an unknown plugin, cleartext or old
	// passwords refused by the driver, TLS required (1251, 1524, 3159).
	LoginAuthMethod LoginRefusedReason = "auth_method"
)
