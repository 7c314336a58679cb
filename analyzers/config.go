package analyzers

import "time"

// Config holds every threshold the rules use. Tags in comments point at
// /work/shared/reference/diagnostic-rules.md §0 (PTS = pt-stalk, MT =
// MySQLTuner, DOL = dolphie, IT = innotop, PMM-A/PMM-C = PMM alerts/checks,
// APA = awesome-prometheus-alerts, MX = mysqld_exporter mixin, ZBX = Zabbix,
// GREGG = USE method). "UNKNOWN" marks numbers no public source gives: they are
// design defaults, kept here so a DBA can change them in one place.
type Config struct {
	// Persistence says how many consecutive frames a rule's raw signal must hold
	// to raise and be absent to clear. Rules not listed use DefaultPersistence.
	DefaultPersistence Persistence
	Persistence        map[string]Persistence

	// WarmupSeconds keeps ratio rules quiet right after a (re)start, while the
	// server recovers and loads (§1.2; length UNKNOWN). Short on purpose: a
	// per-interval ratio is a real measurement once queries run, and captured
	// incidents often begin right after a restart (the reference capture
	// starts at Uptime 5 s). A cold buffer pool is said in buffer_pool_miss's
	// evidence and caps it at warning while Uptime < RestartedRecent.
	WarmupSeconds int64

	// SightingWindow is how many recent frames rules look back over for
	// things a 1-s sample catches only now and then: a convoy of short query
	// cache lock holds, a stream of short deep-OFFSET pages.
	SightingWindow int

	// QCWaitersWarn: threads in "Waiting for query cache lock" (QC-01; count
	// is a design choice, the persistence is PTS 5 x 1 s).
	QCWaitersWarn int
	// QCWaitSightingsMin and QCWaitShareMin: over the last SightingWindow
	// samples, at least QCWaitSightingsMin thread sightings in
	// "Waiting for query cache lock" that make at least QCWaitShareMin % of
	// all working-thread sightings. No public number exists (§9.1); calibrated
	// in the lab on incident 001's mariadb-slap key workload (MariaDB 10.11,
	// 10 clients, 128M cache), where 20–55 % of working-thread sightings
	// were waiting; the default sits below that range.
	QCWaitSightingsMin int
	QCWaitShareMin     float64
	// SerialisedIdleMin: CPU idle % at or above which threads queueing on a
	// lock read as a serialised server, not one short of CPU (incident 001:
	// 4–8 runnable threads at 70 % idle; number UNKNOWN).
	SerialisedIdleMin float64

	// FullScanMinSeconds: an UPDATE/DELETE must have run this long before it is
	// judged (DOL colours a running query yellow from 5 s).
	FullScanMinSeconds float64
	// FullScanMinTableRows gates out small tables, where a scan is the cheap
	// plan (FTS-01 trap; size gate UNKNOWN).
	FullScanMinTableRows int64
	// FullScanExaminedShare: examined rows this close to the table's rows mean
	// the statement is reading all of it (§7 decision logic; fraction UNKNOWN).
	FullScanExaminedShare float64
	// FullScanCritSeconds applies when innodb_lock_wait_timeout is unknown:
	// waiters start failing after that long (FTS-01; server default 50 s).
	FullScanCritSeconds float64

	// BufferPoolHitWarn/Crit are hit % = 100*(1 - reads/read_requests)
	// (BP-01: MT < 90 warn, DOL <= 80 red).
	BufferPoolHitWarn float64
	BufferPoolHitCrit float64
	// BufferPoolMinRequests: read requests per second below which the ratio is
	// noise (§1.4, UNKNOWN).
	BufferPoolMinRequests float64

	// DeepOffsetMin: OFFSET at or above this reads and discards that many rows
	// (incident 000 used OFFSET 60000; threshold UNKNOWN).
	DeepOffsetMin int64
	// DeepOffsetSightingsMin: deep pages seen in this many samples of the
	// SightingWindow make a pattern, not a one-off (UNKNOWN).
	DeepOffsetSightingsMin int

	// TableLocksImmediateWarn: immediate share % below this (LOCK-02, MT < 95).
	TableLocksImmediateWarn float64
	// TableLocksMinPerSec: lock requests per second below which the share is
	// noise (§1.4, UNKNOWN).
	TableLocksMinPerSec float64

	// LogWaitsWarnPerSec: Innodb_log_waits per second (LOG-02, MX/APA > 10);
	// any non-zero rate is worth an info (MT flags any ratio > 0).
	LogWaitsWarnPerSec float64

	// CheckpointAgeWarn/Crit in % of redo capacity (LOG-01, DOL 60 / DOL, ITG 80).
	CheckpointAgeWarn float64
	CheckpointAgeCrit float64

	// DiskUtilWarn % and DiskAwaitWarnMS come from the design brief (incident
	// 004: disks over 60 % busy or 35 ms service time). DiskMinIOPS keeps a
	// single slow I/O on an idle disk from counting (UNKNOWN).
	DiskUtilWarn    float64
	DiskAwaitWarnMS float64
	DiskMinIOPS     float64

	// SwapPagesWarn: pages swapped in+out per second (HOST-03, GREGG: any
	// non-zero si/so is saturation). SwapUsedCrit % of swap in use while
	// swapping (PMM-A node_swap_filled_up: 80 %).
	SwapPagesWarn float64
	SwapUsedCrit  float64

	// CPUIdleLow: idle % below which a run queue longer than the CPU count is
	// saturation (HOST-01 GREGG r > CPUs; HOST-02 PMM-A busy > 80 %).
	CPUIdleLow float64

	// TmpDiskShareWarn/Crit: % of temporary tables created on disk (TMP-01:
	// PMM-C error > 5 %, MT > 25 %). TmpDiskRateWarn per second (ZBX > 10/s).
	// TmpDiskMinPerSec keeps one disk table in a quiet second from counting.
	TmpDiskShareWarn float64
	TmpDiskShareCrit float64
	TmpDiskRateWarn  float64
	TmpDiskMinPerSec float64
	// OwnTmpTablesPerSample and OwnTmpDiskTablesPerSample are the monitor's own
	// footprint (§1.5), subtracted before judging so an idle server stays
	// quiet: SHOW GLOBAL STATUS materialises one in-memory temporary table per
	// sample on MariaDB 10.11.19; the processlist is read with SHOW FULL
	// PROCESSLIST, which makes none (information_schema.PROCESSLIST made one
	// on disk per read, which is why collectors avoid it each tick).
	OwnTmpTablesPerSample     float64
	OwnTmpDiskTablesPerSample float64

	// SortMergeShareWarn: merge passes as % of sorts (SORT-01, MT > 10 %).
	// SortMergeMinPerSec keeps a rare merge pass from counting (UNKNOWN).
	SortMergeShareWarn float64
	SortMergeMinPerSec float64

	// RowLockWaitWarn: a lock waiter older than this (TRX-03, IT > 10 s green);
	// RowLockWaitCrit: or the server's innodb_lock_wait_timeout if lower
	// (IT red > 60 s).
	RowLockWaitWarn time.Duration
	RowLockWaitCrit time.Duration

	// LongTrxWarn/Crit: oldest ACTIVE transaction (TRX-01, IT > 300 s yellow,
	// > 600 s red).
	LongTrxWarn time.Duration
	LongTrxCrit time.Duration

	// MDLWaitersWarn: threads in "Waiting for table metadata lock" (LOCK-01,
	// count UNKNOWN, persistence PTS).
	MDLWaitersWarn int

	// ThreadsRunningWarn: Threads_running above this (CONC-01, PTS default
	// --threshold 25). The monitor's own connection is not counted.
	ThreadsRunningWarn int64

	// ConnectionsWarn: Threads_connected % of max_connections (CONC-02,
	// PMM-A/APA 80 %). Refused connections are always critical (ZBX).
	ConnectionsWarn float64

	// ReplicaLagWarn/Crit (REPL-01: APA/MX 30 s, PMM-A 300 s).
	ReplicaLagWarn time.Duration
	ReplicaLagCrit time.Duration

	// RestartedRecent: a server up for less than this has just (re)started
	// (PMM-A mysql_restarted: Uptime < 300 s).
	RestartedRecent time.Duration
}

// Persistence is the onset/clear hysteresis of one rule, in frames.
type Persistence struct {
	Onset int // consecutive frames with the signal before raising
	Clear int // consecutive frames without it before clearing
}

// DefaultConfig returns the sourced defaults.
func DefaultConfig() Config {
	return Config{
		// Single 1-s spikes are noise (§1.3); 3 frames to raise is a design
		// choice below pt-stalk's 5, 5 to clear keeps findings from flickering.
		DefaultPersistence: Persistence{Onset: 3, Clear: 5},
		Persistence: map[string]Persistence{
			// PTS --cycles 5 --interval 1 for state pile-ups (QC-01, LOCK-01, CONC-01).
			IDQueryCacheContention: {Onset: 5, Clear: 5},
			IDMetadataLockPileup:   {Onset: 5, Clear: 5},
			IDThreadsRunningHigh:   {Onset: 5, Clear: 5},
			// The statement's own Time already proves it lasts.
			IDFullScanUpdate: {Onset: 1, Clear: 3},
			// Counted over SightingWindow already.
			IDDeepOffsetPagination: {Onset: 1, Clear: 5},
			// The monitor's own view: say it at once.
			IDServerUnresponsive: {Onset: 1, Clear: 1},
			IDServerRestarted:    {Onset: 1, Clear: 1},
			// A stopped thread does not flicker; the state is read, not sampled.
			IDReplicationStopped: {Onset: 2, Clear: 3},
		},
		WarmupSeconds: 10,

		QCWaitersWarn:      1,
		SightingWindow:     15,
		QCWaitSightingsMin: 3,
		QCWaitShareMin:     15,
		SerialisedIdleMin:  50,

		FullScanMinSeconds:    5,
		FullScanMinTableRows:  1000,
		FullScanExaminedShare: 0.5,
		FullScanCritSeconds:   50,

		BufferPoolHitWarn:     90,
		BufferPoolHitCrit:     80,
		BufferPoolMinRequests: 100,

		DeepOffsetMin:          10000,
		DeepOffsetSightingsMin: 3,

		TableLocksImmediateWarn: 95,
		TableLocksMinPerSec:     10,

		LogWaitsWarnPerSec: 10,

		CheckpointAgeWarn: 60,
		CheckpointAgeCrit: 80,

		DiskUtilWarn:    60,
		DiskAwaitWarnMS: 35,
		DiskMinIOPS:     5,

		SwapPagesWarn: 0,
		SwapUsedCrit:  80,

		CPUIdleLow: 20,

		TmpDiskShareWarn: 5,
		TmpDiskShareCrit: 25,
		TmpDiskRateWarn:  10,
		TmpDiskMinPerSec: 1,

		OwnTmpTablesPerSample:     1,
		OwnTmpDiskTablesPerSample: 0,

		SortMergeShareWarn: 10,
		SortMergeMinPerSec: 1,

		RowLockWaitWarn: 10 * time.Second,
		RowLockWaitCrit: 60 * time.Second,

		LongTrxWarn: 300 * time.Second,
		LongTrxCrit: 600 * time.Second,

		MDLWaitersWarn: 1,

		ThreadsRunningWarn: 25,

		ConnectionsWarn: 80,

		ReplicaLagWarn: 30 * time.Second,
		ReplicaLagCrit: 300 * time.Second,

		RestartedRecent: 300 * time.Second,
	}
}

// persistence returns the hysteresis for rule id, never below one frame.
func (c *Config) persistence(id string) Persistence {
	p, ok := c.Persistence[id]
	if !ok {
		p = c.DefaultPersistence
	}
	return Persistence{Onset: max(p.Onset, 1), Clear: max(p.Clear, 1)}
}
