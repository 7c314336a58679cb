package snapshot

import "time"

// Part is one part of a frame: the collector that fills it, the Snapshot
// fields it fills, where they hold statement text, how often it is read live,
// whether captures carry it and what it feeds on screen. Parts lists every
// collector once; masking and redaction of statement text, the importers'
// "not in this capture", the check report's panels and the live periods and
// their flags are all derived from it, so a new collector is its file, its
// line in the live schedule and one row here (docs/architecture.md).
type Part struct {
	Collector CollectorName
	// Fields are the Snapshot fields the collector fills, by Go name.
	Fields []string
	// Text is where those fields hold statement text (TestEveryTextFieldIsDeclared).
	Text []TextField
	// Every is the collector's live period; 0 runs it every tick (it may
	// still skip ticks when there is nothing to read).
	Every time.Duration
	// Flag, when set, is the command-line flag that overrides Every, and
	// FlagUsage its help.
	Flag, FlagUsage string
	// Captured is how an importer's note names the part when a capture
	// lacks it ("no processlist"); "" when no capture format carries it.
	Captured string
	// Panels are what the part feeds on screen, in the words the DBA sees
	// there: a blind spot in the check report names them.
	Panels []string
}

// Parts is every collector's part of a frame.
var Parts = []Part{
	{Collector: CollectorStatus, Fields: []string{"Status", "SelfStatus", "SelfTmpDiskTables"},
		Captured: "no status counters",
		Panels:   []string{"header rates and every counter-based finding"}},
	{Collector: CollectorProcesslist, Fields: []string{"Processlist", "ListCadence"},
		Text:     []TextField{{"Processlist.Info", TextStatement}},
		Captured: "no processlist",
		Panels:   []string{"processlist (other users' threads)", "lock tree", "kill keys"}},
	{Collector: CollectorHost, Fields: []string{"Host"},
		Captured: "no host figures",
		Panels:   []string{"host panel (CPU, disks, memory, swap, network, TCP retransmits, mysqld's RSS)"}},
	{Collector: CollectorInnoDB, Fields: []string{"InnoDB"},
		Text: []TextField{
			{"InnoDB.Raw", TextReport},
			{"InnoDB.LatestDeadlock", TextLines},
			{"InnoDB.Transactions.Trx.Query", TextStatement},
		},
		Every: 5 * time.Second, Flag: "innodb-interval", FlagUsage: "how often to read SHOW ENGINE INNODB STATUS",
		Captured: "no InnoDB status",
		Panels:   []string{"InnoDB panel (checkpoint age, history list, semaphores, latest deadlock)"}},
	{Collector: CollectorVariables, Fields: []string{"Variables", "VariablesChanged"},
		Every: 10 * time.Second, Flag: "variables-interval", FlagUsage: "how often to check variables for changes",
		Captured: "no server variables",
		Panels:   []string{"server settings the findings compare with (variables pane)"}},
	{Collector: CollectorLocks, Fields: []string{"Locks"},
		Text:     []TextField{{"Locks.Threads.LastStatement", TextStatement}},
		Captured: "no lock waits",
		Panels:   []string{"lock tree (row-lock edges; root-blocker kill)"}},
	{Collector: CollectorReplica, Fields: []string{"ReplicaChannels", "Replica"},
		// The replication errors quote the statement that failed: a
		// replicated CREATE USER … IDENTIFIED BY carries its password.
		Text: []TextField{
			{"ReplicaChannels[Last_SQL_Error]", TextError},
			{"ReplicaChannels[Last_Error]", TextError},
			{"Replica[Last_SQL_Error]", TextError},
			{"Replica[Last_Error]", TextError},
		},
		Flag: "replica-interval", FlagUsage: "how often to read replica status (default: every tick; every 30 s while the server is no replica)",
		Captured: "no replica status",
		Panels:   []string{"replication panel"}},
	{Collector: CollectorErrorLog, Fields: []string{"RefusedLogins"},
		Panels: []string{"who was refused a login (connection_errors' evidence)"}},
	{Collector: CollectorThreads, Fields: []string{"Threads"},
		Panels: []string{"per-connection CPU and I/O columns"}},
	// The tablespace sizes change slowly, and the buffer pool rule only
	// sets them beside the pool's size.
	{Collector: CollectorInnoDBSize, Fields: []string{"InnoDBFileBytes"},
		Every:  5 * time.Minute,
		Panels: []string{"buffer pool sizing advice"}},
	// A filesystem fills over minutes, and time-to-full needs a span, not
	// a tick.
	{Collector: CollectorDiskSpace, Fields: []string{"Filesystems"},
		Every:  5 * time.Second,
		Panels: []string{"disk space of the server's filesystems (free, time to full)"}},
	{Collector: CollectorPreparedOwners, Fields: []string{"PreparedOwners"},
		Text:   []TextField{{"PreparedOwners.Sample", TextStatement}},
		Panels: []string{"who holds prepared statements (prepared_stmt_limit's evidence)"}},
	{Collector: CollectorHostCache, Fields: []string{"HostErrors"},
		Panels: []string{"which host max_connect_errors blocked (connection_errors' evidence)"}},
	// The accounts' limits change with a CREATE USER or ALTER USER, not
	// under load.
	{Collector: CollectorAccountLimits, Fields: []string{"AccountLimits"},
		Every:  time.Minute,
		Panels: []string{"accounts at their own MAX_USER_CONNECTIONS (connection_errors' evidence)"}},
	{Collector: CollectorAppliedTables, Fields: []string{"AppliedTables"},
		Panels: []string{"whether the table a replica searches row by row has a primary key (replication_lag's evidence)"}},
	{Collector: CollectorMemory, Fields: []string{"Memory"},
		Panels: []string{"what holds mysqld's memory (MEMORY tables, instrumented allocations)"}},
	// The kernel's own stall clocks: read every tick, they cost three small
	// reads of /proc.
	{Collector: CollectorPressure, Fields: []string{"Pressure"},
		Captured: "no stall clocks",
		Panels:   []string{"host panel's stall line (tasks waiting for CPU, I/O, memory)", "cpu_saturation's and disk_saturation's stall evidence"}},
	{Collector: CollectorStatements, Fields: []string{"Statements"},
		Text: []TextField{
			{"Statements.Digests.Text", TextStatement},
			{"Statements.Digests.Sample", TextStatement},
		},
		Every: 5 * time.Second, Flag: "statements-interval", FlagUsage: "how often to read the statement digests (performance_schema)",
		Panels: []string{"top statements (digests; sampled from the processlist meanwhile)"}},
	{Collector: CollectorExplain, Fields: []string{"Explains"},
		Text: []TextField{
			{"Explains.Statement", TextStatement},
			{"Explains.Error", TextError},
		},
		Panels: []string{"plans of running statements (full-scan findings' evidence)"}},
}

// PartOf returns the collector's row of Parts.
func PartOf(name CollectorName) (Part, bool) {
	for _, p := range Parts {
		if p.Collector == name {
			return p, true
		}
	}
	return Part{}, false
}
