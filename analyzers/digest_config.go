package analyzers

// DigestConfig holds the thresholds of the rules' digest evidence (the
// server's own per-statement counters, Snapshot.Statements). Embedded in
// Config.
type DigestConfig struct {
	// DigestExaminedRatio: rows examined at least this many times the rows
	// sent (SELECT) or changed (UPDATE/DELETE) is a statement that reads far
	// more than it uses (FTS-01; deep_offset_pagination in
	// docs/rules-catalogue.md; ratio UNKNOWN, a design default).
	// Trap: an aggregate that examines many rows to return few on purpose is
	// cheap when the table is small (DigestScanMinRowsPerCall).
	DigestExaminedRatio float64
	// DigestScanMinRowsPerCall: each call must examine at least this many
	// rows, or the table is too small for a scan to matter (the same gate as
	// FullScanMinTableRows; UNKNOWN). Trap: scans of small tables, the
	// optimizer's right choice.
	DigestScanMinRowsPerCall float64
	// DigestCauseLines: how many statements a rule names as the cause.
	// Trap: none; it bounds the evidence only.
	DigestCauseLines int
}

func (c *DigestConfig) defaults() {
	*c = DigestConfig{DigestExaminedRatio: 10, DigestScanMinRowsPerCall: 1000, DigestCauseLines: 3}
}
