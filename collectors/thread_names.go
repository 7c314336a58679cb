package collectors

import "strings"

// threadLabel groups a background thread under a short name a DBA reads in
// the host panel ("purge", "page cleaner"). It takes performance_schema's
// instrument name (thread/innodb/page_cleaner_thread) when there is one,
// else the OS thread name: MySQL 8 names its threads (ib_pg_flush_co,
// ib_io_rd-1), MariaDB 10.x leaves them all "mariadbd", which says nothing.
func threadLabel(psName, comm string) string {
	if psName != "" {
		return labelOfInstrument(psName)
	}
	if comm == "" || isServerName(comm) {
		return ""
	}
	return labelOfComm(comm)
}

// labelRules map a substring of either name to a label, first match wins.
var labelRules = []struct{ part, label string }{
	{"page_cleaner", "page cleaner"}, {"page_flush", "page cleaner"}, {"pg_flush", "page cleaner"},
	{"purge", "purge"}, {"srv_worker", "purge"}, {"srv_wkr", "purge"},
	{"io_read", "I/O"}, {"io_write", "I/O"}, {"io_ibuf", "I/O"}, {"io_log", "I/O"},
	{"io_handler", "I/O"}, {"ib_io_", "I/O"}, {"aio", "I/O"}, {"iou-wrk", "I/O"},
	{"log_writer", "redo log"}, {"log_flush", "redo log"}, {"log_checkpoint", "redo log"},
	{"ib_log", "redo log"}, {"log_files", "redo log"},
	{"slave_io", "replication"}, {"slave_sql", "replication"}, {"slave_worker", "replication"},
	{"replica_", "replication"}, {"rpl_", "replication"}, {"binlog", "replication"},
	{"master_thread", "InnoDB main"}, {"srv_master", "InnoDB main"}, {"ib_src_main", "InnoDB main"},
	{"thread_pool", "InnoDB pool"}, {"tpool", "InnoDB pool"},
	{"buf_dump", "buffer pool dump"}, {"dict_stats", "stats"}, {"fts_", "fulltext"},
	{"event_scheduler", "events"}, {"evt_sched", "events"}, {"signal_handler", "signals"},
	{"sig_handler", "signals"}, {"one_connection", "idle connection thread"},
}

func labelOfInstrument(name string) string {
	low := strings.ToLower(name)
	for _, r := range labelRules {
		if strings.Contains(low, r.part) {
			return r.label
		}
	}
	// thread/sql/main -> main
	if i := strings.LastIndexByte(low, '/'); i >= 0 {
		low = low[i+1:]
	}
	return strings.ReplaceAll(strings.TrimSuffix(low, "_thread"), "_", " ")
}

func labelOfComm(comm string) string {
	low := strings.ToLower(comm)
	for _, r := range labelRules {
		if strings.Contains(low, r.part) {
			return r.label
		}
	}
	// ib_fts_opt-3 -> ib_fts_opt: numbered threads of one kind are one row.
	if i := strings.LastIndexByte(low, '-'); i > 0 && onlyDigits(low[i+1:]) {
		low = low[:i]
	}
	return low
}

func onlyDigits(s string) bool {
	for i := range len(s) {
		if !isASCIIDigit(s[i]) {
			return false
		}
	}
	return s != ""
}
