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
