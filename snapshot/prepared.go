package snapshot

// PreparedOwner is one session holding prepared statements, from
// performance_schema.prepared_statements_instances: read only while the
// server's count nears max_prepared_stmt_count.
type PreparedOwner struct {
	// ThreadID is the processlist id (0 for a background thread).
	ThreadID int64  `json:"thread_id"`
	User     string `json:"user,omitempty"`
	Host     string `json:"host,omitempty"`
	// Count is how many prepared statements the session holds; Sample is the
	// text of one of them.
	Count  int64  `json:"count"`
	Sample string `json:"sample,omitempty"`
}
