package analyzers

import "time"

// Config holds every threshold the rules use. Tags in comments name the public
// source of each number; docs/sources.md says what each tag and § number
// means and where to read it: PTS = pt-stalk, MT =
// MySQLTuner, DOL = dolphie, IT = innotop, PMM-A/PMM-C = PMM alerts/checks,
// APA = awesome-prometheus-alerts, MX = mysqld_exporter mixin, ZBX = Zabbix,
// GREGG = USE method. "UNKNOWN" marks numbers no public source gives: they are
// design defaults, kept here so a DBA can change them in one place.
//
// Every threshold says which false-alarm trap it avoids ("Trap:"): a level
// that is normal at rest, a ratio over a near-zero denominator, a counter the
// monitor itself moves, a duration one sample cannot show, or a blip of the
// monitor's own connection.
type Config struct {
	// Persistence says how long (by the frames' timestamps) a rule's raw
	// signal must hold to raise and be absent to clear; DefaultConfig makes
	// it from each rule value's persist (in the rule's file, written with
	// persistFor). Rules not listed use DefaultPersistence.
	// Trap: a single 1-s spike. Rules whose one sample already proves a
	// duration (ACTIVE seconds, lock wait seconds, Time) raise at once.
	DefaultPersistence Persistence
	Persistence        map[string]Persistence

	// WarmupSeconds keeps ratio rules quiet right after a (re)start, while the
	// server recovers and loads (§1.2; length UNKNOWN). Short on purpose: a
	// per-interval ratio is a real measurement once queries run, and captured
	// incidents often begin right after a restart (the reference capture
	// starts at Uptime 5 s). A cold buffer pool is said in buffer_pool_miss's
	// evidence and caps it at warning while Uptime < RestartedRecent.
	// Trap: ratios over the first seconds' near-zero denominators.
	WarmupSeconds int64

	// SightingWindow is how many recent frames rules look back over for
	// things a 1-s sample catches only now and then: a convoy of short query
	// cache lock holds, a stream of short deep-OFFSET pages.
	// Also short full-scan UPDATEs sent again and again. Trap: one sighting
	// is chance.
	SightingWindow int

	// QCWaitersWarn: threads in "Waiting for query cache lock" (QC-01; count
	// is a design choice, the persistence is PTS 5 x 1 s).
	// Trap: one waiter for a microsecond is normal with the cache on: 5
	// frames in a row.
	QCWaitersWarn int
	// QCWaitSightingsMin and QCWaitShareMin: over the last SightingWindow
	// samples, at least QCWaitSightingsMin thread sightings in
	// "Waiting for query cache lock" that make at least QCWaitShareMin % of
	// all working-thread sightings. No public number exists (§9.1); calibrated
	// in the lab on incident 001's mariadb-slap key workload (MariaDB 10.11,
	// 10 clients, 128M cache), where 20–55 % of working-thread sightings
	// were waiting; the default sits below that range.
	// Trap: a share over a handful of working threads (QCWaitSightingsMin is
	// the denominator's floor).
	QCWaitSightingsMin int
	QCWaitShareMin     float64
	// SerialisedIdleMin: CPU idle % at or above which threads queueing on a
	// lock read as a serialised server, not one short of CPU (incident 001:
	// 4–8 runnable threads at 70 % idle; number UNKNOWN).
	// Trap: calling a lock queue CPU starvation.
	SerialisedIdleMin float64

	// DeepOffsetMin: OFFSET at or above this reads and discards that many rows
	// (incident 000 used OFFSET 60000; threshold UNKNOWN).
	// Trap: ordinary paging near the first pages.
	DeepOffsetMin int64
	// DeepOffsetSightingsMin: deep pages seen in this many samples of the
	// SightingWindow make a pattern, not a one-off (UNKNOWN).
	// Trap: one crawler request.
	DeepOffsetSightingsMin int

	// TableLocksImmediateWarn: immediate share % below this (LOCK-02, MT < 95).
	// Trap: MT's since-start-up ratio; judged per interval instead.
	TableLocksImmediateWarn float64
	// TableLockWaitSamplesMin and TableLockWaitShareMin: threads seen waiting
	// for a table-level lock in at least TableLockWaitSamplesMin of the last
	// SightingWindow samples, making at least TableLockWaitShareMin % of the
	// working-thread sightings, raise it although no three samples in a row
	// caught the queue. The same bars as the query cache convoy's
	// (QCWaitSightingsMin, QCWaitShareMin: both locks queue readers behind
	// short writes). Measured on the seed incident (MariaDB 10.11, MyISAM,
	// 600k rows, 3 clients looping a 50-ms full-scan UPDATE, 16 key readers):
	// 16 readers wait in one sample of three, 30-40 % of sightings. Trap:
	// one sample that caught a reader behind one write (3 samples, not 3
	// sightings), and a share over a handful of working threads.
	TableLockWaitSamplesMin int
	TableLockWaitShareMin   float64
	// TableLocksMinPerSec: lock requests per second below which the share is
	// noise (§1.4, UNKNOWN).
	// Trap: a near-zero denominator; the monitor's own SHOW statements take a
	// few table locks each tick.
	TableLocksMinPerSec float64

	// LogWaitsWarnPerSec: Innodb_log_waits per second (LOG-02, MX/APA > 10);
	// any non-zero rate is worth an info (MT flags any ratio > 0).
	// Trap: a cumulative count since start-up; judged as a rate.
	LogWaitsWarnPerSec float64

	// DiskUtilWarn % and DiskAwaitWarnMS come from the design brief (incident
	// 004: disks over 60 % busy or 35 ms service time), for spinning disks
	// only, and only devices holding the datadir, tmpdir, binlog or redo when
	// the mount table is known (trap: a busy disk that holds nothing of the
	// server's). DiskMinIOPS keeps a
	// single slow I/O on an idle disk from counting (UNKNOWN).
	// Trap: await over a near-zero number of I/Os (DiskMinIOPS).
	DiskUtilWarn    float64
	DiskAwaitWarnMS float64
	DiskMinIOPS     float64
	// DiskFastQueueWarn, DiskFastAwaitWarnMS, DiskFastAwaitCritMS judge an
	// SSD, NVMe or virtual disk, where %util means little because it serves
	// requests in parallel (HOST-04 trap: 100 % only means "never idle"):
	// saturated when requests queue (GREGG: avgqu-sz > 1 is saturation; 2 for
	// a device that overlaps them, design) and each waits more than 20 ms
	// (an SSD serves a read in well under 1 ms; 20 ms is queueing, design),
	// critical from 100 ms. Trap: spinning-disk limits applied to every device
	// (issue 28): a virtio disk at 70 % util with 2 ms await is not saturated.
	DiskFastQueueWarn   float64
	DiskFastAwaitWarnMS float64
	DiskFastAwaitCritMS float64

	// SwapPagesWarn: pages swapped in+out per second (HOST-03, GREGG: any
	// non-zero si/so is saturation). SwapUsedCrit % of swap in use while
	// swapping (PMM-A node_swap_filled_up: 80 %).
	// Trap: swap in use at rest (pages parked long ago) is not swapping; only
	// the page rate counts.
	SwapPagesWarn float64
	SwapUsedCrit  float64

	// CPUIdleLow: idle % below which a run queue longer than the CPU count is
	// saturation (HOST-01 GREGG r > CPUs; HOST-02 PMM-A busy > 80 %).
	// Trap: the load average (it counts D-state waits); the run queue and
	// idle time are read instead.
	CPUIdleLow float64
	// MysqldCPUShareMin: % of the host's busy CPU time mysqld must use to be
	// "the process using the CPU" (/proc/<pid>/stat). Below it cpu_saturation
	// says other processes use the CPU and does not blame the statements
	// (UNKNOWN; half). Trap: a busy neighbour (a build, a backup compressor) on
	// the database host.
	MysqldCPUShareMin float64

	// TmpDiskShareWarn/Crit: % of temporary tables created on disk (TMP-01:
	// PMM-C error > 5 %, MT > 25 %). TmpDiskRateWarn per second (ZBX > 10/s).
	// TmpDiskMinPerSec keeps one disk table in a quiet second from counting.
	// Trap: a share over a near-zero denominator, and the monitor's own
	// statements (OwnTmp* below).
	TmpDiskShareWarn float64
	TmpDiskShareCrit float64
	TmpDiskRateWarn  float64
	TmpDiskMinPerSec float64
	// TmpDiskShareWarn is read since start-up, as a configuration check at
	// info (PMM-C's check, MT's since-start-up ratio), once the server has been
	// up TmpDiskConfigMinUptime (MT: "MySQL started within last 24 hours -
	// recommendations may be inaccurate") and made TmpDiskConfigMinTables
	// temporary tables (UNKNOWN; a floor for the ratio). The per-second alarm
	// is the rate of the application's on-disk tables above TmpDiskRateWarn
	// (ZBX), critical when TmpDiskShareCrit % of the application's temporary
	// tables go to disk (MT). Routine work's own (a dump's information_schema
	// reads) is put on it at info (tmp_disk_routine.go).
	// Trap: an interval's share over whatever ran in it: a dump's
	// information_schema reads are all on disk whatever tmp_table_size says
	// (issue 28: "27 % went to disk", CRITICAL for a healthy dump's minute).
	TmpDiskConfigMinUptime time.Duration
	TmpDiskConfigMinTables float64
	// OwnTmpTablesPerSample and OwnTmpDiskTablesPerSample are the monitor's own
	// footprint (§1.5), subtracted before judging so an idle server stays
	// quiet: SHOW GLOBAL STATUS materialises one in-memory temporary table per
	// sample on MariaDB 10.11.19; the processlist is read with SHOW FULL
	// PROCESSLIST, which makes none (information_schema.PROCESSLIST made one
	// on disk per read, which is why collectors avoid it each tick).
	// Live sources measure the share instead, from the sampling session's own
	// Created_tmp_* (on a server with tmp_table_size <= 4M every SHOW GLOBAL
	// STATUS makes one on disk); these figures are the fallback for recordings
	// and captures without it. Trap: a counter the monitor moves.
	OwnTmpTablesPerSample     float64
	OwnTmpDiskTablesPerSample float64

	// SortMergeShareWarn: merge passes as % of sorts (SORT-01, MT > 10 %).
	// SortMergeMinPerSec keeps a rare merge pass from counting (UNKNOWN).
	// Trap: a share over a near-zero denominator.
	SortMergeShareWarn float64
	SortMergeMinPerSec float64
	// Persistence of tmp_disk_tables and sort_merge_passes: 30 s of signal
	// to raise, 10 s without to clear (config_defaults.go). ZBX holds its
	// on-disk temporary table rate for 5 m (at a 1-m poll); a dashboard
	// watched during an incident uses 30 s, which no single report query's
	// spill or dump's per-table information_schema burst (1-2 s) holds, while
	// an application's steady rate does. MT reads merge passes since start-up,
	// no duration; the same 30 s. Trap: a one-off statement's spill at 1-s
	// sampling (the default's 3 frames).

	// RowLockWaitWarn: a lock waiter older than this (TRX-03, IT > 10 s green);
	// RowLockWaitCrit: or the server's innodb_lock_wait_timeout if lower
	// (IT red > 60 s).
	// Trap: the millisecond waits of a busy OLTP server. The age comes from the
	// sample itself (LOCK WAIT N sec), so it raises from one sample.
	RowLockWaitWarn time.Duration
	RowLockWaitCrit time.Duration

	// LongTrxWarn/Crit: oldest ACTIVE transaction (TRX-01, IT > 300 s yellow,
	// > 600 s red).
	// Trap: the harmless idle reader (a reporting session in REPEATABLE READ)
	// is named only past LongTrxWarn; the age is ACTIVE N sec of one sample,
	// so no persistence is needed to prove it.
	LongTrxWarn time.Duration
	LongTrxCrit time.Duration
	// LongTrxBlockingMin: a younger transaction is named when others wait on
	// its row locks and it has been open this long (= RowLockWaitWarn, so a
	// row_lock_waits finding has its holder named beside it). Trap: the
	// sub-second waits of normal contention.
	LongTrxBlockingMin time.Duration
	// LongTrxHistoryMin and HistoryGrowthWarn: a transaction open this long
	// while the history list grew at least this many entries per second over
	// the same stretch (issue #13: 0 -> 19,787 in 90 s = 220/s; UNKNOWN).
	// Trap: the history list's rise and fall under writes, which purge follows
	// within seconds; the length alone is a level normal at rest.
	LongTrxHistoryMin time.Duration
	HistoryGrowthWarn float64

	// DeadlockRecent: a LATEST DETECTED DEADLOCK newer than the previous
	// sample stands this long after it happened, as an info (by the InnoDB monitor's own
	// clock); on the first sample, one at most this old is raised. Trap: last
	// week's deadlock, which every InnoDB status keeps printing.
	DeadlockRecent time.Duration
	// DeadlockStormWarn / DeadlockStormCrit: deadlocks within
	// DeadlockStormWindow that make a storm, a warning / critical. TRX-04: no
	// published rate ("show every new deadlock as an info event"); one a
	// minute or an hour is routine on a busy OLTP server, 5 a minute is the
	// same rows fought over again and again, 30 a minute (one every 2 s) is
	// transactions failing faster than anyone can read them (UNKNOWN; design).
	// Trap: one deadlock in a write burst raised a warning standing 60 s
	// (issue 28); single deadlocks are info, standing DeadlockRecent.
	DeadlockStormWarn   int
	DeadlockStormCrit   int
	DeadlockStormWindow time.Duration

	// MDLWaitersWarn: threads in "Waiting for table metadata lock" (LOCK-01,
	// count UNKNOWN, persistence PTS).
	// Trap: the instant MDL waits of DDL on an idle table (5 frames).
	MDLWaitersWarn int

	// ThreadsRunningWarn: executing threads above this when the CPU count is
	// unknown (a remote server, a capture without host figures): CONC-01, PTS
	// default --threshold 25, which pt-stalk's docs say to adjust per system.
	// The monitor's own connection is not counted.
	// Trap: a counter the monitor moves: its own connection is running while it
	// reads status, so it is not counted.
	ThreadsRunningWarn int64
	// ThreadsRunningPerCPU: with the host's CPU count known, executing threads
	// above this many per CPU are a pile-up. 2 per CPU is where InnoDB's own
	// guidance put useful concurrency (MySQL 5.x manual, innodb_thread_concurrency:
	// "2 times the number of CPUs plus the number of disks") and PMM-C's
	// saturation point for a latch load (CONC-05: B = 2 × vCPUs).
	// Traps: Threads_running counts threads sleeping inside a statement
	// (SELECT SLEEP long polls: 50 of them on an idle 2-CPU host raised
	// "50 threads running") and threads queued behind a lock, which the lock
	// rules name with their holder; neither is counted as executing.
	ThreadsRunningPerCPU float64

	// ConnectionsWarn: Threads_connected % of max_connections (CONC-02,
	// PMM-A/APA 80 %). Refused connections are always critical (ZBX).
	// Trap: a cumulative count since start-up; Connection_errors are judged per
	// interval.
	ConnectionsWarn float64

	// GaleraFCPausedWarn/Crit: share of an interval the cluster was paused by
	// flow control (design choice, UNSOURCED: the vendors only say "close to
	// 0.0"; a cluster paused a tenth of the time loses a tenth of its write
	// throughput, half is an outage in slow motion).
	GaleraFCPausedWarn float64
	GaleraFCPausedCrit float64

	// RestartedRecent: a server up for less than this has just (re)started
	// (PMM-A mysql_restarted: Uptime < 300 s).
	// server_restarted is raised only when a restart is observed. Trap: a
	// server merely young when the monitor starts (the header says "up 46 s").
	RestartedRecent time.Duration

	// UnresponsiveAfter: server_unresponsive is raised once the server has been
	// silent this long, or for two samples in a row. Trap: a 105 ms restart the
	// monitor reconnects across, which made one frame say "has not answered for
	// 0.0 s".
	UnresponsiveAfter time.Duration

	// DigestConfig: the digest proof's thresholds, each with its trap
	// (digest_config.go).
	DigestConfig

	// Thresholds of the backup, commit, purge, latch and tuning rules (issue 22).

	// GlobalReadLockWaitersWarn: threads queued behind a global read lock or
	// backup lock ("Waiting for global read lock", "Waiting for backup lock",
	// "Waiting for commit lock", "Waiting for table flush"). LOCK-03 gives no
	// number: any waiter for the PTS persistence window (5 x 1 s) is the
	// policy. Trap avoided: FLUSH TABLES WITH READ LOCK held for a moment by a
	// backup with nothing queued behind it raises nothing, and a lone waiter
	// for a second is gone before the window ends.
	GlobalReadLockWaitersWarn int
	// GlobalReadLockCritSeconds: the oldest queued write has waited this long
	// (the server's own innodb_lock_wait_timeout default, 50 s, after which
	// applications typically time out themselves; FTS-01's rationale). The
	// server's lock_wait_timeout (1 year by default) never ends these waits.
	// Trap: none of its own; it only raises the severity.
	GlobalReadLockCritSeconds float64

	// CommitFsyncMinPerSec: write commits per second below which per-commit
	// fsyncs are not judged (UNKNOWN; design). Trap avoided: a lightly loaded
	// server with innodb_flush_log_at_trx_commit=1 fsyncs once per commit
	// too, and nobody waits for it.
	CommitFsyncMinPerSec float64
	// CommitFsyncShareMin: fsyncs per commit at or above which group commit
	// is not absorbing the fsyncs ("fsyncs per second close to commits per
	// second", issue 22; measured on MariaDB 10.11: 1.1 fsyncs per commit
	// with one client, 0.5 with 16; the fraction is a design choice). Trap: a
	// ratio over a near-zero denominator (CommitFsyncMinPerSec sets its floor).
	CommitFsyncShareMin float64
	// CommitFsyncBusyWarn: % of each second the redo device spends on cache
	// flushes (fsyncs/s x ms per flush, from /proc/diskstats) at which commits
	// are bound by it: a warning. Below it the pattern is an info (UNKNOWN;
	// design). Trap avoided: on a disk whose write cache makes a flush cost
	// 0.05 ms, 2,500 fsyncs/s cost an eighth of a second per second and the
	// pattern is worth knowing, not an alarm.
	CommitFsyncBusyWarn float64

	// PurgeLagWarn / PurgeLagCrit: History list length (TRX-02: APA
	// MysqlInnodbHistory_lenTooLong > 50,000 for 2 m is a warning; MT's
	// badprint > 100,000 is used as the higher tier, MT-derived). The length
	// must also have grown at each of PurgeLagSteps steps of PurgeLagStep
	// (APA's "for 2m", read minute over minute). Trap avoided: a big batch
	// DELETE raises the length once, and purge then works it off: a length
	// that stopped growing raises nothing.
	PurgeLagWarn  int64
	PurgeLagCrit  int64
	PurgeLagStep  time.Duration
	PurgeLagSteps int
	// PurgeLagMinGrowth: entries per second the length must have grown by in
	// each step (UNKNOWN; argued). At 20/s it gains 72,000 an hour: from
	// PurgeLagWarn to PurgeLagCrit in about 40 minutes, the slowest growth
	// that becomes an incident within a working shift; each committed write
	// transaction adds one entry, so it is also ~20 writing transactions a
	// second that purge leaves behind. The live proof (a held read view, 4
	// clients updating rows) grows at the commit rate: 690 then 3,600/s
	// measured on MariaDB 10.11. Trap: a
	// length that is high at rest and drifts as purge works in batches
	// (innodb_purge_batch_size pages a round): +10 then +80 entries at 7,400
	// over two steps (128M pool, 256M redo, light writes) "grew at each step"
	// and raised a warning on a healthy server.
	PurgeLagMinGrowth float64

	// SemaphoreWaitWarnSeconds: a latch wait this long in the SEMAPHORES wait
	// array is a warning. CONC-04 says any wait present; waits of 0–1 s are
	// latches the sample happened to catch mid-spin (most of the 164 waits in
	// one pt-mysql-summary sample), and waits of a few seconds are routine
	// under a write load (a page split holding an index latch, the adaptive
	// hash index rebuilt after a DDL). 10 s is where a latch stalls every
	// statement on that index (the same 10 s innotop greens a lock wait at,
	// IT L2552; UNKNOWN for latches, design).
	// SemaphoreWaitCritSeconds: InnoDB's own long-wait limit
	// (SYNC_ARRAY_TIMEOUT = 240 s, sync0arr.cc), after which it warns in the
	// error log ("long semaphore wait") and, at
	// innodb_fatal_semaphore_wait_threshold (600 s), aborts.
	// Trap: short latch waits under load (issue 28: any wait of 1 s raised),
	// and a latch the sample caught mid-spin.
	SemaphoreWaitWarnSeconds float64
	SemaphoreWaitCritSeconds float64

	// WaitFreeSightingsMin: Innodb_buffer_pool_wait_free rose in this many of
	// the last SightingWindow intervals (BP-02: MT flags any increase; the
	// waits come in bursts a few seconds apart, so one rise holds the finding
	// for the window). Trap avoided: the cumulative counter (MT's own check)
	// would fire forever after one old event; only rises count.
	WaitFreeSightingsMin int

	// QCYieldWindow: the query cache's hits, inserts and prunes are compared
	// over this much history (QC-03: ">= 1 min window (design)"), and only
	// once QCYieldMinSpan of it exists since the last restart or FLUSH
	// STATUS. QCYieldMinLookups: hits+inserts in the window below which the
	// ratio is noise (§1.4, UNKNOWN). The cache does not pay when inserts >=
	// hits (incident 004: a low Qcache_hits to Qcache_inserts ratio).
	// QCPrunesPerDayWarn: low-memory prunes per day (QC-04, MT > 98).
	// Traps avoided: a cache that is off is never judged; a cache still
	// filling after start-up has free memory and no prunes.
	QCYieldWindow      time.Duration
	QCYieldMinSpan     time.Duration
	QCYieldMinLookups  float64
	QCPrunesPerDayWarn float64

	// BufferPoolRAMShareLow/High: % of the host's RAM the buffer pool should
	// get on a server that runs nothing else (BP-03; incident 004: "70–80 %
	// of the available memory"). buffer_pool_miss's advice names the low end
	// of MemTotal when the server is local and its pool is below it. Trap
	// avoided: advising a number for a remote server's RAM, which the monitor
	// cannot see (it then sizes against InnoDB's files, or gives none). Trap: a
	// remote server, whose RAM this machine cannot see (advice only, local only).
	BufferPoolRAMShareLow  float64
	BufferPoolRAMShareHigh float64

	// Caches and limits (issue 29), each in its rule's file with its sources
	// and traps.
	TableCacheConfig
	PreparedStmtConfig
	ThreadCacheConfig
	OpenFilesConfig
	DiskSpaceConfig
	BinlogCacheConfig
	ReadAheadConfig

	// HotRowsConfig: hot_rows' thresholds, each with its source and trap
	// (hot_rows.go).
	HotRowsConfig
	// RunawayConfig: runaway_query's thresholds (runaway_query.go).
	RunawayConfig
	// ConnErrConfig: connection_errors' thresholds (connection_errors.go).
	ConnErrConfig
	// CommitTimeConfig: commit_fsync_bound's time thresholds
	// (commit_fsync_bound.go).
	CommitTimeConfig
	// FullScanConfig: full_scan_update's thresholds (full_scan_config.go).
	FullScanConfig
	// BufferPoolMissConfig: buffer_pool_miss's thresholds (buffer_pool_miss_config.go).
	BufferPoolMissConfig
	// CheckpointConfig: checkpoint_age_high's thresholds (checkpoint_age_config.go).
	CheckpointConfig
	// ReplicationConfig: replication_lag's and replication_stopped's thresholds (replication_config.go).
	ReplicationConfig
}
