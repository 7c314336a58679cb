package snapshot

import "time"

// Snapshot is everything sampled at one instant. It holds raw, cumulative values
// only; anything per second is derived by Delta so live runs and replays agree.
type Snapshot struct {
	Time   time.Time  `json:"time"`
	Server ServerInfo `json:"server"`

	// Processlist excludes the monitor's own threads.
	Processlist []Process `json:"processlist,omitempty"`
	// ListCadence says the processlist is read in full less often than
	// every tick, and when it last was (list_cadence.go); nil otherwise.
	ListCadence *ListCadence `json:"list_cadence,omitempty"`
	// Status holds SHOW GLOBAL STATUS as the server printed it.
	Status map[string]string `json:"status,omitempty"`
	// Kept stands for Status in the analyzers' older window frames, which
	// the pipeline thins to the few values rules read from them (Status is
	// then nil); never in a frame handed to consumers. Read either through
	// StatusValue.
	Kept *KeptStatus `json:"-"`
	// Variables is the latest SHOW GLOBAL VARIABLES. Live, the same map is shared
	// between snapshots until it changes; VariablesChanged says when it did, so a
	// recording stores it only then.
	Variables        map[string]string `json:"variables,omitempty"`
	VariablesChanged bool              `json:"variables_changed,omitempty"`
	InnoDB           *InnoDBStatus     `json:"innodb,omitempty"`
	// Replica is SHOW REPLICA/SLAVE STATUS of one channel, as recordings made
	// before channels were read, and captures, hold it; nil otherwise.
	Replica map[string]string `json:"replica,omitempty"`
	// ReplicaChannels is every replication channel's status row (SHOW ALL
	// REPLICAS STATUS, or SHOW REPLICA STATUS that lists each MySQL channel);
	// nil when not a replica. Read them through Channels.
	ReplicaChannels []map[string]string `json:"replica_channels,omitempty"`
	Host            *Host               `json:"host,omitempty"`
	// Threads is mysqld's threads as /proc counts them; nil when the server
	// is not on this machine or the source has none (imported captures).
	Threads *Threads `json:"threads,omitempty"`
	// Explains holds plans of running statements, fetched by a collector when a
	// rule needs them, keyed by statement fingerprint.
	Explains map[string]*Explain `json:"explains,omitempty"`
	// Statements is the latest interval of statement digests (statements.go);
	// ticks between digest reads carry the same sample.
	Statements *Statements `json:"statements,omitempty"`
	// Locks is who waits for whom, read only when something waits (nil
	// otherwise); BuildLockTree turns it into the lock tree.
	Locks *Locks `json:"locks,omitempty"`
	// InnoDBFileBytes is the total size of InnoDB's tablespace files (system
	// tablespace included, temporary excluded), read every few minutes; 0
	// when unknown.
	InnoDBFileBytes int64 `json:"innodb_file_bytes,omitempty"`
	// Filesystems are the filesystems holding the server's datadir, tmpdir,
	// binlog, redo and other files, with their free space, read every few
	// seconds when the server runs on this machine (nil otherwise).
	Filesystems []Filesystem `json:"filesystems,omitempty"`
	// Pressure is how long tasks on this machine stalled for a CPU, I/O and
	// memory (pressure.go), read when the server runs here and the kernel
	// reports it; nil otherwise.
	Pressure *Pressure `json:"pressure,omitempty"`
	// PreparedOwners are the sessions holding the most prepared statements,
	// read only while Prepared_stmt_count is at least half of
	// max_prepared_stmt_count and performance_schema is on.
	PreparedOwners []PreparedOwner `json:"prepared_owners,omitempty"`

	// RefusedLogins is who the error log says was refused since the previous
	// read (logins.go); nil when it was not read this tick.
	RefusedLogins *RefusedLogins `json:"refused_logins,omitempty"`
	// HostErrors are the client hosts with connection errors in the server's
	// host cache, most errors first (connect_limits.go); nil when none or
	// not read. Ticks between reads carry the last read.
	HostErrors []HostErrors `json:"host_errors,omitempty"`
	// AccountLimits are the accounts with a MAX_USER_CONNECTIONS of their
	// own, read every minute; nil when none or not readable.
	AccountLimits []AccountLimit `json:"account_limits,omitempty"`

	// Memory is what holds mysqld's memory where the server says it (MEMORY
	// tables, instrumented allocations); nil when not read.
	Memory *MemoryHolders `json:"memory,omitempty"`

	// AppliedTables are the keys of the tables the replica's appliers search
	// row by row (find_row), read while they do; nil otherwise.
	AppliedTables []AppliedTable `json:"applied_tables,omitempty"`

	// Collectors reports each source's health for this sample.
	Collectors map[CollectorName]CollectorState `json:"collectors,omitempty"`
	// SelfTmpDiskTables counts the on-disk temporary tables the monitor's own
	// statements made this tick (each information_schema.PROCESSLIST read makes
	// one on MariaDB and MySQL 5.x). Status is read first in a tick, so they
	// show in the next snapshot's counters; rules subtract them from there.
	SelfTmpDiskTables int `json:"self_tmp_disk_tables,omitempty"`
	// SelfStatus is the monitor's own sampling session's counters
	// (Created_tmp_tables, Created_tmp_disk_tables), cumulative: their change
	// between samples is the monitor's measured share of the global ones.
	SelfStatus map[string]string `json:"self_status,omitempty"`
	// Approximate is set by importers whose source carries no exact clock.
	Approximate bool `json:"approximate,omitempty"`
}

// ServerInfo identifies the server a snapshot came from.
type ServerInfo struct {
	Address string `json:"address,omitempty"` // host:port or socket, never credentials
	Version string `json:"version,omitempty"` // e.g. "10.11.19-MariaDB"
	Flavor  string `json:"flavor,omitempty"`  // mysql | mariadb | percona
	// Unreachable is set when the server did not answer this tick.
	Unreachable bool   `json:"unreachable,omitempty"`
	Error       string `json:"error,omitempty"`
	// DownSince is when the server last stopped answering (zero when it answers).
	DownSince time.Time `json:"down_since,omitempty"`
	// OwnSessions is how many sessions the server may hold for the monitor:
	// its sampling and on-demand connections and those it gave up on that
	// the server has not ended yet. OwnSessionsCap is set when that is the
	// monitor's cap, which it does not exceed: no new connection until one
	// ends.
	OwnSessions    int `json:"own_sessions,omitempty"`
	OwnSessionsCap int `json:"own_sessions_cap,omitempty"`
	// LoginRefused is set while the server refuses the monitor's logins:
	// the monitor then tries again only at LoginRetry (zero: when the DBA
	// asks, or when the option files give other credentials).
	LoginRefused LoginRefusedReason `json:"login_refused,omitempty"`
	LoginRetry   time.Time          `json:"login_retry,omitzero"`
}

// Flavors of server.
const (
	FlavorMySQL   = "mysql"
	FlavorMariaDB = "mariadb"
	FlavorPercona = "percona"
)

// CollectorState is one collector's outcome for one snapshot.
type CollectorState struct {
	Latency time.Duration `json:"latency,omitempty"`
	// Stale means this part of the snapshot was carried from an earlier tick or is
	// absent because the collector failed or timed out; Error says why.
	Stale bool   `json:"stale,omitempty"`
	Error string `json:"error,omitempty"`
	// Unavailable says what is missing for this source to run at all, e.g.
	// "needs the PROCESS privilege"; such a panel is shown as degraded, not zero.
	Unavailable string `json:"unavailable,omitempty"`
}

// Process is one row of the processlist.
type Process struct {
	ID      int64  `json:"id"`
	User    string `json:"user,omitempty"`
	Host    string `json:"host,omitempty"`
	DB      string `json:"db,omitempty"`
	Command string `json:"command,omitempty"`
	// TimeMS is milliseconds in the current state; servers that only print
	// seconds give seconds*1000.
	TimeMS int64  `json:"time_ms"`
	State  string `json:"state,omitempty"`
	Info   string `json:"info,omitempty"`
	// ExaminedRows is MariaDB's EXAMINED_ROWS or Percona's ROWS_EXAMINED; -1 if unknown.
	ExaminedRows int64 `json:"examined_rows,omitempty"`
	// Progress is MariaDB's PROGRESS in percent; 0 if unknown.
	Progress float64 `json:"progress,omitempty"`
	// NoIndexUsed is performance_schema's NO_INDEX_USED for the running
	// statement: the optimizer found no index for at least one table (a full
	// scan), known at plan time. False when unknown.
	NoIndexUsed bool `json:"no_index_used,omitempty"`
	// OSThread is the operating system thread serving the connection
	// (MariaDB's PROCESSLIST.TID, MySQL's threads.THREAD_OS_ID); 0 if unknown.
	OSThread int64 `json:"tid,omitempty"`
	// MemoryBytes is what the server says the connection holds: MariaDB's
	// PROCESSLIST.MEMORY_USED, MySQL 8.0.31+'s threads.TOTAL_MEMORY; 0 if unknown.
	MemoryBytes int64 `json:"memory_used,omitempty"`
}

// Explain is the plan of a running statement.
type Explain struct {
	Fingerprint string       `json:"fingerprint"`
	ThreadID    int64        `json:"thread_id,omitempty"`
	Statement   string       `json:"statement,omitempty"`
	Method      string       `json:"method,omitempty"` // "SHOW EXPLAIN FOR", "EXPLAIN FOR CONNECTION", "EXPLAIN"
	Rows        []ExplainRow `json:"rows,omitempty"`
	// TableRows is the optimizer's estimate of rows in each table, keyed by table.
	TableRows map[string]int64 `json:"table_rows,omitempty"`
	Error     string           `json:"error,omitempty"`
	At        time.Time        `json:"at"`
}

// ExplainRow is one row of EXPLAIN output.
type ExplainRow struct {
	ID           string `json:"id,omitempty"`
	SelectType   string `json:"select_type,omitempty"`
	Table        string `json:"table,omitempty"`
	Type         string `json:"type,omitempty"`
	PossibleKeys string `json:"possible_keys,omitempty"`
	Key          string `json:"key,omitempty"`
	Rows         int64  `json:"rows,omitempty"`
	Extra        string `json:"extra,omitempty"`
}
