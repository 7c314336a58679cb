package analyzers

import (
	"reflect"
	"time"
)

// Config is the engine's: how long a signal must hold (persistence), the
// warm-up after a restart and the sighting window, which every rule shares,
// and each rule's own thresholds, one embedded Config per rule, declared
// once in the list below. The fields are promoted, so a rule reads and a
// test overrides c.QCWaitersWarn whichever Config declares it.
//
// Beside each threshold, in its rule's Config, a comment names the public
// source of its number by a tag; docs/sources.md says what each tag and §
// number means and where to read it: PTS = pt-stalk, MT = MySQLTuner, DOL =
// dolphie, IT = innotop, PMM-A/PMM-C = PMM alerts/checks, APA =
// awesome-prometheus-alerts, MX = mysqld_exporter mixin, ZBX = Zabbix, GREGG
// = USE method. "UNKNOWN" marks numbers no public source gives: they are
// design defaults, each beside its rule.
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

	// DigestConfig: the thresholds of the digest evidence several rules
	// give (digest_config.go).
	DigestConfig

	// Each rule's own thresholds, in the order of allRules (rule.go). Its
	// Config is declared beside the rule (in its file, or a <rule>_config.go),
	// each number with its source and the trap it avoids, and its defaults
	// method sets the shipped values. A new rule's Config is one more line.
	UnresponsiveConfig      // server_unresponsive
	RestartConfig           // server_restarted
	QueryCacheConfig        // query_cache_contention
	FullScanConfig          // full_scan_update, full_scan_select, full_scan_storm
	BufferPoolMissConfig    // buffer_pool_miss
	DeepOffsetConfig        // deep_offset_pagination
	TableLockConfig         // table_lock_contention
	InnoDBTableLockConfig   // innodb_table_lock_queue
	LogWaitsConfig          // log_buffer_waits
	CheckpointConfig        // checkpoint_age_high
	DiskSaturationConfig    // disk_saturation
	SwapConfig              // swapping
	MemoryConfig            // mysqld_memory_runaway
	CPUConfig               // cpu_saturation
	TmpDiskConfig           // tmp_disk_tables
	SortMergeConfig         // sort_merge_passes
	RowLockConfig           // row_lock_waits
	LongTrxConfig           // long_transaction
	DeadlockConfig          // deadlock
	MDLConfig               // metadata_lock_pileup
	ThreadsRunningConfig    // threads_running_high
	ConnectionsConfig       // connections_near_max
	ReplicationConfig       // replication_stopped, replication_lag
	GaleraFlowControlConfig // galera_flow_control
	GlobalReadLockConfig    // global_read_lock_pileup
	CommitTimeConfig        // commit_fsync_bound
	PurgeLagConfig          // purge_lag
	SemaphoreConfig         // semaphore_waits
	WaitFreeConfig          // buffer_pool_wait_free
	QCYieldConfig           // query_cache_inefficient
	TableCacheConfig        // table_cache_thrash
	PreparedStmtConfig      // prepared_stmt_limit
	ThreadCacheConfig       // thread_cache_miss
	OpenFilesConfig         // open_files_near_limit
	DiskSpaceConfig         // disk_space_low
	BinlogCacheConfig       // binlog_cache_spill
	ReadAheadConfig         // read_ahead_evicted
	HotRowsConfig           // hot_rows
	RunawayConfig           // runaway_query
	ConnErrConfig           // connection_errors
}

// DefaultConfig returns the sourced defaults: the engine's own here, and
// each rule's from its Config's defaults method.
func DefaultConfig() Config {
	c := Config{
		// Single 1-s spikes are noise (§1.3); 3 frames to raise is a design
		// choice below pt-stalk's 5, 5 to clear keeps findings from flickering.
		DefaultPersistence: persistFor(3*time.Second, 5*time.Second),
		Persistence:        rulesPersistence(),
		WarmupSeconds:      10,
		SightingWindow:     15,
	}
	c.setEmbeddedDefaults()
	return c
}

// ruleConfig is a Config embedded in Config: one rule's thresholds (or those
// of a helper several rules share, such as DigestConfig), declared in the
// rule's file or in a <rule>_config.go beside it. defaults sets its shipped
// values. DefaultConfig calls it on every embedded Config, so a rule's Config
// is declared once, by its line in Config.
type ruleConfig interface{ defaults() }

// setEmbeddedDefaults calls defaults on every Config embedded in c.
func (c *Config) setEmbeddedDefaults() {
	v := reflect.ValueOf(c).Elem()
	for i := range v.NumField() {
		if f := v.Type().Field(i); f.Anonymous && f.IsExported() {
			if rc, ok := v.Field(i).Addr().Interface().(ruleConfig); ok {
				rc.defaults()
			}
		}
	}
}
