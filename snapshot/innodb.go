package snapshot

import (
	"strconv"
	"time"
)

// InnoDBStatus is SHOW ENGINE INNODB STATUS parsed into typed sections. Fields a
// given server version does not print stay zero and the section's Present flag
// says whether it was seen at all. Raw keeps the text exactly as received.
type InnoDBStatus struct {
	Raw string `json:"raw,omitempty"`
	// Time is the monitor output's own timestamp, when printed.
	Time time.Time `json:"time,omitempty"`
	// ReadAt is when the monitor read it (its own clock); a status carried
	// into later frames keeps it, so its age is the frame's time minus this.
	// Zero in captures that do not say.
	ReadAt time.Time `json:"read_at,omitzero"`
	// AveragesSeconds is "Per second averages calculated from the last N seconds".
	AveragesSeconds int  `json:"averages_seconds,omitempty"`
	Truncated       bool `json:"truncated,omitempty"`

	BufferPool   InnoDBBufferPool   `json:"buffer_pool"`
	Log          InnoDBLog          `json:"log"`
	Rows         InnoDBRows         `json:"rows"`
	Transactions InnoDBTransactions `json:"transactions"`
	Semaphores   InnoDBSemaphores   `json:"semaphores"`
	FileIO       InnoDBFileIO       `json:"file_io"`
	// LatestDeadlock is the LATEST DETECTED DEADLOCK section's text, if any.
	LatestDeadlock     string    `json:"latest_deadlock,omitempty"`
	LatestDeadlockTime time.Time `json:"latest_deadlock_time,omitempty"`
}

// InnoDBBufferPool is the BUFFER POOL AND MEMORY section (totals over instances).
type InnoDBBufferPool struct {
	Present bool `json:"present"`
	// Sizes are in pages.
	SizePages               int64 `json:"size_pages"`
	FreePages               int64 `json:"free_pages"`
	DatabasePages           int64 `json:"database_pages"`
	OldPages                int64 `json:"old_pages"`
	ModifiedPages           int64 `json:"modified_pages"`
	PendingReads            int64 `json:"pending_reads"`
	PendingWritesLRU        int64 `json:"pending_writes_lru"`
	PendingWritesFlushList  int64 `json:"pending_writes_flush_list"`
	PendingWritesSinglePage int64 `json:"pending_writes_single_page"`
	// Cumulative page counters.
	PagesRead    int64 `json:"pages_read"`
	PagesCreated int64 `json:"pages_created"`
	PagesWritten int64 `json:"pages_written"`
	// Rates as printed for the averaging window.
	ReadsPerSec        float64 `json:"reads_per_sec"`
	CreatesPerSec      float64 `json:"creates_per_sec"`
	WritesPerSec       float64 `json:"writes_per_sec"`
	ReadAheadPerSec    float64 `json:"read_ahead_per_sec"`
	EvictedPerSec      float64 `json:"evicted_per_sec"`
	RandomReadAheadSec float64 `json:"random_read_ahead_per_sec"`
	// HitRate is "Buffer pool hit rate X / 1000" as a fraction (0..1); -1 when
	// the server printed "No buffer pool page gets since the last printout".
	HitRate       float64 `json:"hit_rate"`
	HitRateShown  bool    `json:"hit_rate_shown"`
	DirtyPercent  float64 `json:"dirty_percent,omitempty"`
	TotalMemBytes int64   `json:"total_mem_bytes,omitempty"`
	// SizeBytes is "Buffer pool size, bytes" (Percona, MySQL 5.5); 0 if not printed.
	SizeBytes int64 `json:"size_bytes,omitempty"`
}

// InnoDBLog is the LOG section.
type InnoDBLog struct {
	Present          bool  `json:"present"`
	SequenceNumber   int64 `json:"lsn"`
	FlushedUpTo      int64 `json:"flushed_up_to"`
	PagesFlushedUpTo int64 `json:"pages_flushed_up_to"`
	LastCheckpoint   int64 `json:"last_checkpoint"`
	// CheckpointAge is LSN - last checkpoint, in bytes.
	CheckpointAge int64 `json:"checkpoint_age"`
	// CapacityBytes is the redo capacity when the text or variables tell it
	// (MySQL 8.0.30+ prints it; otherwise filled from variables by the caller); 0 if unknown.
	CapacityBytes int64 `json:"capacity_bytes,omitempty"`
	// CheckpointAgePercent is CheckpointAge / CapacityBytes * 100; 0 when unknown.
	CheckpointAgePercent    float64 `json:"checkpoint_age_percent,omitempty"`
	PendingLogFlushes       int64   `json:"pending_log_flushes"`
	PendingCheckpointWrites int64   `json:"pending_checkpoint_writes"`
	LogIOs                  int64   `json:"log_ios"`
	LogIOsPerSec            float64 `json:"log_ios_per_sec"`
	// BufferAssignedUpTo and WrittenUpTo are printed by MySQL 8.0+ only.
	BufferAssignedUpTo int64 `json:"buffer_assigned_up_to,omitempty"`
	WrittenUpTo        int64 `json:"written_up_to,omitempty"`
	// MaxCheckpointAge is Percona XtraDB's "Max checkpoint age" (the sync
	// flush point, not the capacity); 0 if not printed.
	MaxCheckpointAge int64 `json:"max_checkpoint_age,omitempty"`
}

// InnoDBRows is the ROW OPERATIONS section.
type InnoDBRows struct {
	Present bool `json:"present"`
	// QueriesInside and QueriesInQueue are printed only by servers that still
	// implement innodb_thread_concurrency admission; QueueShown tells.
	QueriesInside  int64 `json:"queries_inside"`
	QueriesInQueue int64 `json:"queries_in_queue"`
	QueueShown     bool  `json:"queue_shown"`
	ReadViewsOpen  int64 `json:"read_views_open"`
	// Cumulative row counters.
	Inserted      int64   `json:"inserted"`
	Updated       int64   `json:"updated"`
	Deleted       int64   `json:"deleted"`
	Read          int64   `json:"read"`
	InsertsPerSec float64 `json:"inserts_per_sec"`
	UpdatesPerSec float64 `json:"updates_per_sec"`
	DeletesPerSec float64 `json:"deletes_per_sec"`
	ReadsPerSec   float64 `json:"reads_per_sec"`
}

// InnoDBTransactions is the TRANSACTIONS section.
type InnoDBTransactions struct {
	Present           bool  `json:"present"`
	TrxIDCounter      int64 `json:"trx_id_counter"`
	HistoryListLength int64 `json:"history_list_length"`
	// Count is the number of ---TRANSACTION entries listed (the server may elide some).
	Count int `json:"count"`
	// Active is how many are ACTIVE; OldestActiveSeconds is the largest "ACTIVE N sec".
	Active              int   `json:"active"`
	OldestActiveSeconds int64 `json:"oldest_active_seconds"`
	// LockWaits counts transactions printing "LOCK WAIT".
	LockWaits int `json:"lock_waits"`
	// Trx lists the transactions as printed (capped), for evidence.
	Trx []InnoDBTrx `json:"trx,omitempty"`
	// ListTruncated is set when the server printed "... truncated..." in
	// place of part of the transaction list.
	ListTruncated bool `json:"list_truncated,omitempty"`
}

// InnoDBTrx is one ---TRANSACTION entry.
type InnoDBTrx struct {
	ID              string `json:"id,omitempty"`
	ActiveSeconds   int64  `json:"active_seconds"`
	State           string `json:"state,omitempty"` // e.g. "ACTIVE", "not started"
	LockWait        bool   `json:"lock_wait,omitempty"`
	LockWaitSeconds int64  `json:"lock_wait_seconds,omitempty"`
	ThreadID        int64  `json:"thread_id,omitempty"`
	// OSThread is "OS thread handle N" in decimal, as the SEMAPHORES wait
	// array names threads (older servers print it in hex).
	OSThread string `json:"os_thread,omitempty"`
	// ReadViewSees is N of "Trx read view will not see trx with id >= M,
	// sees < N": this transaction holds purge back to N; 0 without a view.
	ReadViewSees int64  `json:"read_view_sees,omitempty"`
	RowLocks     int64  `json:"row_locks,omitempty"`
	UndoEntries  int64  `json:"undo_entries,omitempty"`
	TablesInUse  int64  `json:"tables_in_use,omitempty"`
	TablesLocked int64  `json:"tables_locked,omitempty"`
	Query        string `json:"query,omitempty"`
}

// InnoDBSemaphores is the SEMAPHORES section.
type InnoDBSemaphores struct {
	Present bool `json:"present"`
	// Waits is how many "has waited at" entries are printed right now.
	Waits int `json:"waits"`
	// LongestWaitSeconds is the largest "for N seconds the semaphore".
	LongestWaitSeconds float64 `json:"longest_wait_seconds"`
	// WaitList is the wait entries as printed (the first maxSemaphoreWaits).
	WaitList []InnoDBSemaphoreWait `json:"wait_list,omitempty"`
	// Cumulative spin/OS-wait counters, where printed (older servers).
	OSWaits          int64 `json:"os_waits,omitempty"`
	SpinWaits        int64 `json:"spin_waits,omitempty"`
	SpinRounds       int64 `json:"spin_rounds,omitempty"`
	ReservationCount int64 `json:"reservation_count,omitempty"`
	SignalCount      int64 `json:"signal_count,omitempty"`
}

// InnoDBSemaphoreWait is one "--Thread T has waited at F line N for S seconds
// the semaphore:" entry of the SEMAPHORES wait array, with what the lines
// after it say about the latch.
type InnoDBSemaphoreWait struct {
	Thread  string  `json:"thread"`
	File    string  `json:"file"`
	Line    int     `json:"line"`
	Seconds float64 `json:"seconds"`
	// Kind is "Mutex", "S-lock", "X-lock", "SX-lock" or "X-lock (wait_ex)".
	Kind string `json:"kind,omitempty"`
	// Latch names the latch: its quoted name ('&block->lock'), or where it
	// was created ("hash0hash.cc line 116") when the server prints no name.
	Latch string `json:"latch,omitempty"`
	// Holder is the thread that has reserved a rw-latch, when printed.
	Holder     string `json:"holder,omitempty"`
	HolderMode string `json:"holder_mode,omitempty"`
	// LastWriter is "Last time write locked in file F line N".
	LastWriter string `json:"last_writer,omitempty"`
}

// Site is the waiting file:line.
func (s InnoDBSemaphoreWait) Site() string { return s.File + ":" + strconv.Itoa(s.Line) }

// InnoDBFileIO is the FILE I/O section.
type InnoDBFileIO struct {
	Present       bool    `json:"present"`
	PendingReads  int64   `json:"pending_reads"` // "N pending reads" and aio reads
	PendingWrites int64   `json:"pending_writes"`
	PendingFsyncs int64   `json:"pending_fsyncs"` // "Pending flushes (fsync) log: N; buffer pool: M" summed
	OSFileReads   int64   `json:"os_file_reads"`
	OSFileWrites  int64   `json:"os_file_writes"`
	OSFsyncs      int64   `json:"os_fsyncs"`
	ReadsPerSec   float64 `json:"reads_per_sec"`
	WritesPerSec  float64 `json:"writes_per_sec"`
	FsyncsPerSec  float64 `json:"fsyncs_per_sec"`
}
