package importers

import "strings"

// A loop running plain `SHOW STATUS` (as the reference incident's did) gets
// SESSION status: each sample comes from a fresh connection, so per-connection
// counters (Com_*, Handler_*, Questions...) read 0 or 1 forever while the
// server is busy. Passing them on would show a busy server as idle; they are
// dropped so panels show them missing instead.

// sessionScopedPrefixes name status values SHOW SESSION STATUS reports for the
// connection itself on MySQL and MariaDB.
var sessionScopedPrefixes = []string{
	"Bytes_", "Com_", "Created_tmp_", "Empty_queries", "Feature_", "Handler_", "Last_query_",
	"Max_statement_time_exceeded", "Max_tmp_space_used", "Memory_used", "Opened_table_definitions",
	"Opened_tables", "Optimizer_", "Query_time", "Questions", "Rows_", "Select_", "Slow_queries",
	"Sort_", "Stack_usage", "Table_open_cache_", "Threads_running", "Tmp_space_used",
	"Busy_time", "Cpu_time",
}

// sessionScopeNote is what the session learns when a capture holds session status.
const sessionScopeNote = "status was captured with SHOW STATUS (session scope): per-connection counters " +
	"(Com_*, Handler_*, Questions, Threads_running...) were dropped; server-wide ones (Innodb_*, " +
	"Table_locks_*, Key_*...) are kept"

// sessionScopeMissing is what a session-scope capture lacks.
const sessionScopeMissing = "server-wide Com_*, Handler_*, Questions, Threads_running (SHOW STATUS was session scope)"

// isSessionScope reports whether status samples are session-scoped: the
// capturing statement itself is the only SHOW STATUS its connection ever ran.
// One sample cannot tell.
func isSessionScope(samples []map[string]string) bool {
	if len(samples) < 2 {
		return false
	}
	for _, s := range samples {
		v, ok := s["Com_show_status"]
		if !ok || (v != "0" && v != "1") {
			return false
		}
	}
	return true
}

// dropSessionScoped removes per-connection values from a session-scope sample.
func dropSessionScoped(s map[string]string) {
	for name := range s {
		if isSessionScoped(name) {
			delete(s, name)
		}
	}
}

func isSessionScoped(name string) bool {
	for _, p := range sessionScopedPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
