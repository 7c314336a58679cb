package analyzers

import "github.com/mytop-go/mytop-go/snapshot"

// rule is one named check. check is a pure function of the window and config;
// persist is how long its signal must hold to raise and be gone to clear
// (zero: Config.DefaultPersistence), put in Config.Persistence by
// DefaultConfig; defaults, for a rule whose thresholds are a Config of its
// own (embedded in Config), sets their shipped values.
type rule struct {
	id       string
	check    func(w *window, c *Config) verdict
	persist  Persistence
	defaults func(*Config)
}

// verdict is a rule's raw signal for the current frame: not applicable (with
// the reason), quiet, or a finding.
type verdict struct {
	notApplicable string
	finding       *snapshot.Finding
}

func quiet() verdict                 { return verdict{} }
func notApplicable(r string) verdict { return verdict{notApplicable: r} }

// raise builds the raw finding; the engine fills ID and Since.
func raise(sev snapshot.Severity, title string, evidence []string, advice string, threads []int64) verdict {
	return verdict{finding: &snapshot.Finding{
		Severity: sev, Title: title, Evidence: evidence, Advice: advice, Threads: threads,
	}}
}

// allRules is the one table of rules, in the order they are judged. A rule
// is a file that declares its ID, its check, its thresholds and its
// persistence (a rule value), and one line here.
func allRules() []rule {
	return []rule{
		serverUnresponsiveRule,
		serverRestartedRule,
		queryCacheContentionRule,
		fullScanUpdateRule,
		bufferPoolMissRule,
		deepOffsetPaginationRule,
		tableLockContentionRule,
		innoDBThreadQueueRule,
		logBufferWaitsRule,
		checkpointAgeHighRule,
		diskSaturationRule,
		swappingRule,
		cpuSaturationRule,
		tmpDiskTablesRule,
		sortMergePassesRule,
		rowLockWaitsRule,
		longTransactionRule,
		deadlockRule,
		metadataLockPileupRule,
		threadsRunningHighRule,
		connectionsNearMaxRule,
		replicationStoppedRule,
		replicationLagRule,
		galeraFlowControlRule,
		galeraNodeNotSyncedRule,
		galeraClusterShrunkRule,
		globalReadLockPileupRule,
		commitFsyncBoundRule,
		purgeLagRule,
		semaphoreWaitsRule,
		bufferPoolWaitFreeRule,
		queryCacheInefficientRule,
		tableCacheThrashRule,
		preparedStmtLimitRule,
		threadCacheMissRule,
		openFilesNearLimitRule,
		diskSpaceLowRule,
		binlogCacheSpillRule,
		semisyncFallbackRule,
		readAheadEvictedRule,

		hotRowsRule,
		runawayQueryRule,
		connectionErrorsRule,
	}
}
