package snapshot

import "strings"

// gaugePrefixes name status values that go up and down by themselves; a drop in
// one of them is not a counter reset.
var gaugePrefixes = []string{
	"Threads_", "Open_", "Innodb_buffer_pool_pages_", "Innodb_buffer_pool_bytes_",
	"Innodb_row_lock_current_waits", "Innodb_checkpoint_", "Innodb_history_list_length",
	"Innodb_mem_", "Innodb_page_size", "Innodb_data_pending_", "Innodb_os_log_pending_",
	"Innodb_num_open_files", "Innodb_buffer_pool_load_", "Innodb_buffer_pool_dump_",
	"Innodb_buffer_pool_resize", "Innodb_onlineddl_", "Innodb_lsn_", "Innodb_max_trx_id",
	"Innodb_oldest_view_", "Innodb_undo_", "Innodb_current_", "Memory_used",
	"Max_used_connections", "Qcache_free_", "Qcache_queries_in_cache", "Qcache_total_blocks",
	"Key_blocks_", "Slave_", "Slaves_", "Rpl_", "Ssl_", "Tc_log_", "Uptime",
	"Performance_schema_", "Wsrep_", "Slave_open_temp_tables", "Replica_open_temp_tables",
	"Prepared_stmt_count", "Not_flushed_", "Delayed_insert_threads", "Compression",
	"Innodb_have_", "Innodb_available_undo_logs", "Innodb_encryption_",
	"Acl_", "Global_connection_memory",
	"Last_query_cost",
	// Aria's page cache in use and dirty: MariaDB's on-disk temporary tables
	// are Aria tables, so under a steady rate of them these fall every few
	// seconds, and read as FLUSH STATUS they broke every held rate.
	"Aria_pagecache_blocks_",
	// The mean of the row-lock waits so far: it falls whenever short waits
	// follow long ones, and under a hot row that is every second.
	"Innodb_row_lock_time_avg",
	// Galera's are lower case; some are counters (wsrep_flow_control_sent) but
	// the queues and state are gauges, and one of those going down must not
	// read as FLUSH STATUS.
	"wsrep_",
}

// IsCounter reports whether a status value only ever grows until restart or
// FLUSH STATUS.
func IsCounter(name string) bool {
	for _, p := range gaugePrefixes {
		if strings.HasPrefix(name, p) {
			return false
		}
	}
	return true
}
