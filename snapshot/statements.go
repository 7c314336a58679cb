package snapshot

import "time"

// Sources of a statements sample (report json `statements[].source`).
const (
	StatementsPerfSchema  = "performance_schema"
	StatementsProcesslist = "processlist"
)

// Statements is one interval of the server's statement digests
// (performance_schema.events_statements_summary_by_digest): only the digests
// that ran in the interval, with what they did in it. The collector keeps the
// cumulative counters and stores differences, so a recording carries only
// what changed and every sample reads alone, without its predecessors.
type Statements struct {
	// At is when the digests were read; ticks between reads carry the same
	// sample, and consumers that add samples up count each At once.
	At time.Time `json:"at"`
	// Interval is the seconds the differences cover; 0 for the first read of
	// a connection, which only learns the counters.
	Interval float64 `json:"interval"`
	// Changed is how many digests ran in the interval; Digests holds the
	// costliest of them (Changed > len(Digests) when some were left out).
	Changed int      `json:"changed"`
	Digests []Digest `json:"digests,omitempty"`
	// Reset is set when the table was emptied (TRUNCATE, a restart) since the
	// last read: the digests that came back count from their new start.
	Reset bool `json:"reset,omitempty"`
	// Lost is Performance_schema_digest_lost's increase over the interval:
	// statements the full digest table could not give a row of their own
	// (they are summed in the row whose Digest is empty). LostTotal is the
	// counter since start-up; DigestsSize is performance_schema_digests_size.
	Lost        int64 `json:"lost,omitempty"`
	LostTotal   int64 `json:"lost_total,omitempty"`
	DigestsSize int64 `json:"digests_size,omitempty"`
	// ReadSeconds is how long the read took; when 100 times that exceeds the
	// configured period, the next read waits StretchedTo seconds, so the
	// digests never cost the server more than 1 % of its time.
	ReadSeconds float64 `json:"read_s,omitempty"`
	StretchedTo float64 `json:"stretched_to_s,omitempty"`
	// Quantiles is set when the server has MySQL 8's QUANTILE_* columns.
	Quantiles bool `json:"quantiles,omitempty"`
}

// Digest is what one normalised statement did in one interval. Counts are
// the interval's; times are seconds.
type Digest struct {
	Schema string `json:"schema,omitempty"`
	// Digest is the server's hash; empty for the row that sums statements
	// the full table had no room for.
	Digest string `json:"digest"`
	// Text is DIGEST_TEXT, the server's fingerprint (literals as ?).
	Text string `json:"text,omitempty"`
	// Sample is one real statement of this digest, for EXPLAIN: MySQL 8's
	// QUERY_SAMPLE_TEXT, else a running statement of the processlist whose
	// fingerprint matched. Empty when none is known.
	Sample string `json:"sample,omitempty"`

	Calls        int64   `json:"calls"`
	Errors       int64   `json:"errors,omitempty"`
	Warnings     int64   `json:"warnings,omitempty"`
	LatencyS     float64 `json:"latency_s"`
	LockS        float64 `json:"lock_s,omitempty"`
	RowsExamined int64   `json:"rows_examined,omitempty"`
	RowsSent     int64   `json:"rows_sent,omitempty"`
	RowsAffected int64   `json:"rows_affected,omitempty"`
	// NoIndexUsed and NoGoodIndexUsed count calls whose plan had no index
	// (a full scan) or no good one for at least one table.
	NoIndexUsed     int64 `json:"no_index_used,omitempty"`
	NoGoodIndexUsed int64 `json:"no_good_index_used,omitempty"`
	TmpTables       int64 `json:"tmp_tables,omitempty"`
	TmpDiskTables   int64 `json:"tmp_disk_tables,omitempty"`
	SortMergePasses int64 `json:"sort_merge_passes,omitempty"`
	// MaxS and the quantiles cover the digest's whole life, not the interval:
	// the server keeps no per-interval histogram.
	MaxS float64 `json:"max_s,omitempty"`
	P95S float64 `json:"p95_s,omitempty"`
	P99S float64 `json:"p99_s,omitempty"`
}
