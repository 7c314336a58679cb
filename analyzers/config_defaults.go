package analyzers

import "time"

// The shipped values of Config; each field's source and trap are beside its
// declaration in config.go.

// DefaultConfig returns the sourced defaults.
func DefaultConfig() Config {
	return Config{
		DigestConfig: defaultDigestConfig(),
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
			// One sample proves the duration (ACTIVE N sec, LOCK WAIT N sec), and a
			// deadlock is an event.
			IDLongTransaction: {Onset: 1, Clear: 3},
			IDRowLockWaits:    {Onset: 1, Clear: 3},
			IDDeadlock:        {Onset: 1, Clear: 1},
			// Counted over SightingWindow already.
			IDDeepOffsetPagination: {Onset: 1, Clear: 5},
			// The monitor's own view: say it at once.
			IDServerUnresponsive: {Onset: 1, Clear: 1},
			IDServerRestarted:    {Onset: 1, Clear: 1},
			// A stopped thread does not flicker; the state is read, not sampled.
			IDReplicationStopped: {Onset: 2, Clear: 3},
			// A membership change is an event, proven by the new conf id.
			IDGaleraClusterShrunk: {Onset: 1, Clear: 3},
			// A backup's lock pile-up is a state pile-up (PTS 5 x 1 s, LOCK-03).
			IDGlobalReadLockPileup: {Onset: 5, Clear: 5},
			// The wait's own age, and the growth over minutes, already prove
			// the signal lasts; the InnoDB status is also shared by the ticks
			// between two reads, so counting frames would count one sample.
			IDSemaphoreWaits: {Onset: 1, Clear: 3},
			IDPurgeLag:       {Onset: 1, Clear: 5},
			// Counted over SightingWindow / QCYieldWindow already.
			IDBufferPoolWaitFree:    {Onset: 1, Clear: 5},
			IDQueryCacheInefficient: {Onset: 1, Clear: 5},
		},
		WarmupSeconds: 10,

		QCWaitersWarn:      1,
		SightingWindow:     15,
		QCWaitSightingsMin: 3,
		QCWaitShareMin:     15,
		SerialisedIdleMin:  50,

		FullScanMinSeconds:       5,
		FullScanMinTableRows:     1000,
		FullScanExaminedShare:    0.5,
		FullScanCritSeconds:      50,
		FullScanRecurSamples:     3,
		FullScanRecurBusy:        0.3,
		FullScanRecurBlocked:     2,
		FullScanCountedShare:     0.5,
		FullScanCountedMinWrites: 0.5,
		FullScanRecurMinRows:     10000,

		BufferPoolHitWarn:     90,
		BufferPoolHitCrit:     80,
		BufferPoolMinRequests: 100,

		DeepOffsetMin:          10000,
		DeepOffsetSightingsMin: 3,

		TableLocksImmediateWarn: 95,
		TableLocksMinPerSec:     10,
		TableLockWaitSamplesMin: 3,
		TableLockWaitShareMin:   15,

		LogWaitsWarnPerSec: 10,

		CheckpointAgeWarn: 60,
		CheckpointAgeCrit: 80,

		CheckpointHeadroomWarn: 5 * time.Minute,
		CheckpointHeadroomCrit: time.Minute,

		DiskUtilWarn:    60,
		DiskAwaitWarnMS: 35,
		DiskMinIOPS:     5,

		SwapPagesWarn: 0,
		SwapUsedCrit:  80,

		CPUIdleLow:        20,
		MysqldCPUShareMin: 50,

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

		LongTrxBlockingMin: 10 * time.Second,
		LongTrxHistoryMin:  60 * time.Second,
		HistoryGrowthWarn:  100,

		DeadlockRecent: 60 * time.Second,

		MDLWaitersWarn: 1,

		ThreadsRunningWarn: 25,

		ConnectionsWarn: 80,

		GaleraFCPausedWarn: 0.1,
		GaleraFCPausedCrit: 0.5,
		ReplicaLagWarn:     30 * time.Second,
		ReplicaLagCrit:     300 * time.Second,

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

		SemaphoreWaitWarnSeconds: 1,
		SemaphoreWaitCritSeconds: 240,

		WaitFreeSightingsMin: 1,

		QCYieldWindow:      time.Minute,
		QCYieldMinSpan:     30 * time.Second,
		QCYieldMinLookups:  60,
		QCPrunesPerDayWarn: 98,

		BufferPoolRAMShareLow:  70,
		BufferPoolRAMShareHigh: 80,
	}
}
