package analyzers

// FullScanConfig holds full_scan_update's thresholds, each with its source and the trap it avoids.
// Embedded in Config; its defaults method sets the shipped values.
type FullScanConfig struct {
	// FullScanMinSeconds: an UPDATE/DELETE must have run this long before it is
	// judged (DOL colours a running query yellow from 5 s).
	// Shorter statements are judged by how often their fingerprint recurs
	// (FullScanRecur*). Trap: a scan caught in its first second may be about
	// to finish.
	FullScanMinSeconds float64
	// FullScanMinTableRows gates out small tables, where a scan is the cheap
	// plan (FTS-01 trap; size gate UNKNOWN).
	// Trap: scanning a small table is the optimizer's right choice.
	FullScanMinTableRows int64
	// FullScanExaminedShare: examined rows this close to the table's rows mean
	// the statement is reading all of it (§7 decision logic; fraction UNKNOWN).
	// Trap: a range scan that happens to be long.
	FullScanExaminedShare float64
	// FullScanCritSeconds applies when innodb_lock_wait_timeout is unknown:
	// waiters start failing after that long (FTS-01; server default 50 s).
	// Trap: none of its own; it only raises the severity.
	FullScanCritSeconds float64

	// FullScanRecurSamples, FullScanRecurBusy: a short full-scan UPDATE/DELETE
	// fingerprint is raised when it was seen running in at least
	// FullScanRecurSamples of the last SightingWindow samples and keeps
	// FullScanRecurBusy threads busy on average (thread-seconds per second).
	// No public number; the root-cause proofs's reproduction (3 clients looping a 0.3–2 s
	// UPDATE over 400k rows) shows 2–3 running in every sample. Trap: a scan
	// that ran once, or a rare maintenance statement caught by one sample.
	FullScanRecurSamples int
	FullScanRecurBusy    float64
	// FullScanRecurBlocked: a fingerprint seen in at least this many of the
	// last SightingWindow samples while other threads queued for a
	// table-level or query cache lock is raised whatever its busy share and
	// FullScanRecurSamples (UNKNOWN; design). The trap FullScanRecurBusy
	// avoids is an occasional scan that harms nobody; one that others queue
	// behind harms them each time it runs, and two such samples are two
	// convoys, not chance. Measured on the seed incident (MyISAM, 600k rows,
	// a 50-ms scan, 16 readers behind it): seen in one sample of three to
	// one of seven on a loaded machine (busy 0.14-0.33), so three sightings
	// in 15 samples came late or not at all. Trap: one sighting is chance
	// (runs >= 2 is required as well).
	FullScanRecurBlocked int
	// FullScanCountedShare, FullScanCountedMinWrites: a write fingerprint
	// seen too rarely for the paths above is raised when it is the only
	// UPDATE/DELETE with a full-scan plan in the window, UPDATE+DELETE run at
	// FullScanCountedMinWrites/s or more, Handler_read_rnd_next reads at least
	// FullScanCountedShare of the plan's rows for each, and others queued on
	// a table or query-cache lock in FullScanRecurBlocked samples (UNKNOWN;
	// design: measured on the seed incident under a loaded machine, where the
	// UPDATE was caught in 3 of 50 samples). Trap: other tables' scans also
	// move Handler_read_rnd_next, so the share is of rows the plan reads per
	// write, and one other scanning write fingerprint disables the path.
	FullScanCountedShare     float64
	FullScanCountedMinWrites float64
	// FullScanRecurMinRows: the plan must scan at least this many rows for a
	// short statement to count. Trap: short scans of small tables, cheap each
	// time (UNKNOWN, 10x FullScanMinTableRows).
	FullScanRecurMinRows int64
	// FullScanSelectMinCalls: a whole-table SELECT is "again and again"
	// (full_scan_select) at this many calls a second or more (UNKNOWN; the
	// incident: 36/s, of which samples saw at least 4/s start). Trap: a dump
	// or a report reads each table once, 0.1 runs a second in a recorded
	// mariadb-dump; routine sessions are left out as well.
	FullScanSelectMinCalls float64
	// FullScanStormBytesPerRow: without Rows_sent (MySQL), full scans in a
	// capture with no statements (full_scan_storm) filter their rows when
	// the server sends under this many bytes for each row they read
	// (UNKNOWN; design: a row sent costs its 4-byte packet header at least,
	// the incident sent 0.00003 bytes a row read). Trap: a dump or export
	// reads whole tables by design and sends every row it reads.
	FullScanStormBytesPerRow float64
	// ScanShareOfRowsRead: full_scan_storm is the cause of a standing
	// buffer_pool_miss when full scans read at least this share of the rows
	// read in the interval (UNKNOWN; design: half, the storm capture
	// reads nearly all its rows by scanning). Trap: a cold or small pool
	// misses on point lookups too, beside a few scans of small tables.
	ScanShareOfRowsRead float64
}

func (c *FullScanConfig) defaults() {
	*c = FullScanConfig{
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
		FullScanSelectMinCalls:   0.5,
		FullScanStormBytesPerRow: 1,
		ScanShareOfRowsRead:      0.5,
	}
}
