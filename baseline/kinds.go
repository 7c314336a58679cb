package baseline

// Kinds of signal, as the cause classes' signatures name them.
const (
	kQueries kind = iota
	kWrites
	kRowsRead
	kScanReads
	kScans
	kRowsPerQuery
	kScanPerQuery
	kBytesSent
	kBytesRecv
	kRowLockWaits
	kRowLockTime
	kRowLockCurrent
	kTableLockWaits
	kThreadsRunning
	kConnections
	kDataRead
	kDataWritten
	kPagesFlushed
	kLogWaits
	kFlushCmds
	kTablesOpened
	kCheckpointAge
	kReplicaLag
	kLoadCPU
	kLoadIO
	kLoadRowLock
	kLoadMDL
	kLoadTableLock
	kLoadGlobalLock
	kLoadCommit
	kLoadNetwork
	kLoadReplication
	kLoadTotal
	kHostBusy
	kIOWait
	kMysqldCPU
	kOtherCPU
	kRunQueue
	kBlocked
	kMemAvail
	kSwap
	kDiskUtil
	kDiskAwait
	kDiskRead
	kDiskWrite
	kNetRx
	kNetTx
	kRoundTrip
	kRetrans
	kNetErrors
	kRSS
	kStatement
	kUser
	kClientHost
	kRoutine
	// Kinds are saved with a baseline (persist.go): a new one goes last.
	kIdleInTrx
	kOtherTop
	kStallCPU
	kStallIO
	kStallMem
	kClientQueue
	kClientBytes
)
