package analyzers

import "time"

// The shipped values of Config; each field's source and trap are beside its
// declaration in config.go.

// DefaultConfig returns the sourced defaults. A rule whose thresholds are a
// Config of its own sets them in its rule value (defaults), beside them.
func DefaultConfig() Config {
	c := Config{
		DigestConfig: defaultDigestConfig(),
		// Single 1-s spikes are noise (§1.3); 3 frames to raise is a design
		// choice below pt-stalk's 5, 5 to clear keeps findings from flickering.
		DefaultPersistence: persistFor(3*time.Second, 5*time.Second),
		Persistence:        rulesPersistence(),
		WarmupSeconds:      10,

		QCWaitersWarn:      1,
		SightingWindow:     15,
		QCWaitSightingsMin: 3,
		QCWaitShareMin:     15,
		SerialisedIdleMin:  50,

		DeepOffsetMin:          10000,
		DeepOffsetSightingsMin: 3,

		TableLocksImmediateWarn: 95,
		TableLocksMinPerSec:     10,
		TableLockWaitSamplesMin: 3,
		TableLockWaitShareMin:   15,

		LogWaitsWarnPerSec: 10,

		DiskUtilWarn:    60,
		DiskAwaitWarnMS: 35,
		DiskMinIOPS:     5,

		DiskFastQueueWarn:   2,
		DiskFastAwaitWarnMS: 20,
		DiskFastAwaitCritMS: 100,

		SwapPagesWarn: 0,
		SwapUsedCrit:  80,

		CPUIdleLow:        20,
		MysqldCPUShareMin: 50,

		TmpDiskShareWarn: 5,
		TmpDiskShareCrit: 25,
		TmpDiskRateWarn:  10,
		TmpDiskMinPerSec: 1,

		TmpDiskConfigMinUptime: 24 * time.Hour,
		TmpDiskConfigMinTables: 1000,

		OwnTmpTablesPerSample:     1,
		OwnTmpDiskTablesPerSample: 0,

		SortMergeShareWarn: 10,
		SortMergeMinPerSec: 1,

		RowLockWaitWarn: 10 * time.Second,
		RowLockWaitCrit: 60 * time.Second,

		LongTrxWarn: 300 * time.Second,
		LongTrxCrit: 600 * time.Second,

		LongTrxBlockingMin: 10 * time.Second,
		LongTrxHistoryMin:  60 * time.Second,
		HistoryGrowthWarn:  100,

		DeadlockRecent:      30 * time.Second,
		DeadlockStormWarn:   5,
		DeadlockStormCrit:   30,
		DeadlockStormWindow: time.Minute,

		MDLWaitersWarn: 1,

		ThreadsRunningWarn:   25,
		ThreadsRunningPerCPU: 2,

		ConnectionsWarn: 80,

		GaleraFCPausedWarn: 0.1,
		GaleraFCPausedCrit: 0.5,

		RestartedRecent: 300 * time.Second,

		UnresponsiveAfter: time.Second,

		GlobalReadLockWaitersWarn: 1,
		GlobalReadLockCritSeconds: 50,

		CommitFsyncMinPerSec: 100,
		CommitFsyncShareMin:  0.5,
		CommitFsyncBusyWarn:  50,

		PurgeLagWarn:  50000,
		PurgeLagCrit:  100000,
		PurgeLagStep:  time.Minute,
		PurgeLagSteps: 2,
		// Entries per second in each step.
		PurgeLagMinGrowth: 20,

		SemaphoreWaitWarnSeconds: 10,
		SemaphoreWaitCritSeconds: 240,

		WaitFreeSightingsMin: 1,

		QCYieldWindow:      time.Minute,
		QCYieldMinSpan:     30 * time.Second,
		QCYieldMinLookups:  60,
		QCPrunesPerDayWarn: 98,

		BufferPoolRAMShareLow:  70,
		BufferPoolRAMShareHigh: 80,
	}
	for _, r := range allRules() {
		if r.defaults != nil {
			r.defaults(&c)
		}
	}
	return c
}
