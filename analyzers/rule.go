package analyzers

import "github.com/mytop-go/mytop-go/snapshot"

// rule is one named check. check is a pure function of the window and config;
// persist is how long its signal must hold to raise and be gone to clear
// (zero: Config.DefaultPersistence), put in Config.Persistence by
// DefaultConfig. Its thresholds are not here: they are a Config of its own
// beside it, embedded in Config (config.go). held marks a rule
// whose signal is a rate held over its persistence: it is judged over the
// hold's span and stands at info while the hold runs (held_rate.go).
type rule struct {
	id      string
	check   func(w *window, c *Config) verdict
	persist Persistence
	held    bool
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
// is a file that declares its ID, its check and its persistence (a rule
// value) and its thresholds (a Config with its defaults), one line here, and
// for its Config one line in Config.
func allRules() []rule {
	return []rule{
		serverUnresponsiveRule,
		serverRestartedRule,
		queryCacheContentionRule,
		fullScanUpdateRule,
		fullScanSelectRule,
		fullScanStormRule,
		bufferPoolMissRule,
		deepOffsetPaginationRule,
		tableLockContentionRule,
		innoDBTableLockQueueRule,
		innoDBThreadQueueRule,
		logBufferWaitsRule,
		checkpointAgeHighRule,
		diskSaturationRule,
		swappingRule,
		mysqldMemoryRunawayRule,
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

// RuleIDs are the finding IDs of every rule, in the order they are judged:
// for consumers that key figures by finding ID and must not name one that
// no rule raises.
func RuleIDs() []string {
	rules := allRules()
	ids := make([]string, len(rules))
	for i, r := range rules {
		ids[i] = r.id
	}
	return ids
}
