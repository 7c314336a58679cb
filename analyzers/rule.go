package analyzers

import "github.com/mytop-go/mytop-go/snapshot"

// Finding IDs. They are a contract (DESIGN.md "Finding IDs"): stable, never reused.
const (
	IDQueryCacheContention = "query_cache_contention"
	IDFullScanUpdate       = "full_scan_update"
	IDBufferPoolMiss       = "buffer_pool_miss"
	IDDeepOffsetPagination = "deep_offset_pagination"
	IDTableLockContention  = "table_lock_contention"
	IDInnoDBThreadQueue    = "innodb_thread_queue"
	IDLogBufferWaits       = "log_buffer_waits"
	IDCheckpointAgeHigh    = "checkpoint_age_high"
	IDDiskSaturation       = "disk_saturation"
	IDSwapping             = "swapping"
	IDCPUSaturation        = "cpu_saturation"
	IDTmpDiskTables        = "tmp_disk_tables"
	IDSortMergePasses      = "sort_merge_passes"
	IDRowLockWaits         = "row_lock_waits"
	IDLongTransaction      = "long_transaction"
	IDMetadataLockPileup   = "metadata_lock_pileup"
	IDThreadsRunningHigh   = "threads_running_high"
	IDConnectionsNearMax   = "connections_near_max"
	IDReplicationLag       = "replication_lag"
	IDServerUnresponsive   = "server_unresponsive"
	IDServerRestarted      = "server_restarted"
	IDReplicationStopped   = "replication_stopped"
	IDGaleraFlowControl    = "galera_flow_control"
	IDGaleraNodeNotSynced  = "galera_node_not_synced"
	IDGaleraClusterShrunk  = "galera_cluster_shrunk"
	IDDeadlock             = "deadlock"

	IDGlobalReadLockPileup  = "global_read_lock_pileup"
	IDCommitFsyncBound      = "commit_fsync_bound"
	IDPurgeLag              = "purge_lag"
	IDSemaphoreWaits        = "semaphore_waits"
	IDBufferPoolWaitFree    = "buffer_pool_wait_free"
	IDQueryCacheInefficient = "query_cache_inefficient"
)

// rule is one named check. check is a pure function of the window and config.
type rule struct {
	id    string
	check func(w *window, c *Config) verdict
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

// allRules lists every rule in a fixed order.
func allRules() []rule {
	return []rule{
		{IDServerUnresponsive, checkServerUnresponsive},
		{IDServerRestarted, checkServerRestarted},
		{IDQueryCacheContention, checkQueryCacheContention},
		{IDFullScanUpdate, checkFullScanUpdate},
		{IDBufferPoolMiss, checkBufferPoolMiss},
		{IDDeepOffsetPagination, checkDeepOffsetPagination},
		{IDTableLockContention, checkTableLockContention},
		{IDInnoDBThreadQueue, checkInnoDBThreadQueue},
		{IDLogBufferWaits, checkLogBufferWaits},
		{IDCheckpointAgeHigh, checkCheckpointAgeHigh},
		{IDDiskSaturation, checkDiskSaturation},
		{IDSwapping, checkSwapping},
		{IDCPUSaturation, checkCPUSaturation},
		{IDTmpDiskTables, checkTmpDiskTables},
		{IDSortMergePasses, checkSortMergePasses},
		{IDRowLockWaits, checkRowLockWaits},
		{IDLongTransaction, checkLongTransaction},
		{IDDeadlock, checkDeadlock},
		{IDMetadataLockPileup, checkMetadataLockPileup},
		{IDThreadsRunningHigh, checkThreadsRunningHigh},
		{IDConnectionsNearMax, checkConnectionsNearMax},
		{IDReplicationStopped, checkReplicationStopped},
		{IDReplicationLag, checkReplicationLag},
		{IDGaleraFlowControl, checkGaleraFlowControl},
		{IDGaleraNodeNotSynced, checkGaleraNodeNotSynced},
		{IDGaleraClusterShrunk, checkGaleraClusterShrunk},
		{IDGlobalReadLockPileup, checkGlobalReadLockPileup},
		{IDCommitFsyncBound, checkCommitFsyncBound},
		{IDPurgeLag, checkPurgeLag},
		{IDSemaphoreWaits, checkSemaphoreWaits},
		{IDBufferPoolWaitFree, checkBufferPoolWaitFree},
		{IDQueryCacheInefficient, checkQueryCacheInefficient},
	}
}
