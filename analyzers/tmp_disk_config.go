package analyzers

import "time"

// TmpDiskConfig holds tmp_disk_tables' thresholds, each with its source and the
// trap it avoids.
type TmpDiskConfig struct {
	// TmpDiskShareWarn/Crit: % of temporary tables created on disk (TMP-01:
	// PMM-C error > 5 %, MT > 25 %). TmpDiskRateWarn per second (ZBX > 10/s).
	// TmpDiskMinPerSec keeps one disk table in a quiet second from counting.
	// Trap: a share over a near-zero denominator, and the monitor's own
	// statements (OwnTmp* below).
	TmpDiskShareWarn float64
	TmpDiskShareCrit float64
	TmpDiskRateWarn  float64
	TmpDiskMinPerSec float64

	// TmpDiskShareWarn is read since start-up, as a configuration check at
	// info (PMM-C's check, MT's since-start-up ratio; tmp_disk_startup.go), once the server has been
	// up TmpDiskConfigMinUptime (MT: "MySQL started within last 24 hours -
	// recommendations may be inaccurate") and made TmpDiskConfigMinTables
	// temporary tables (UNKNOWN; a floor for the ratio). The per-second alarm
	// is the rate of the application's on-disk tables above TmpDiskRateWarn
	// (ZBX), critical when TmpDiskShareCrit % of the application's temporary
	// tables go to disk (MT). Routine work's own (a dump's information_schema
	// reads) is put on it at info (tmp_disk_routine.go).
	// Trap: an interval's share over whatever ran in it: a dump's
	// information_schema reads are all on disk whatever tmp_table_size says
	// (the routine-work review: "27 % went to disk", CRITICAL for a healthy dump's minute).
	TmpDiskConfigMinUptime time.Duration
	TmpDiskConfigMinTables float64

	// OwnTmpTablesPerSample and OwnTmpDiskTablesPerSample are the monitor's own
	// footprint (§1.5), subtracted before judging so an idle server stays
	// quiet: SHOW GLOBAL STATUS materialises one in-memory temporary table per
	// sample on MariaDB 10.11.19; the processlist is read with SHOW FULL
	// PROCESSLIST, which makes none (information_schema.PROCESSLIST made one
	// on disk per read, which is why collectors avoid it each tick).
	// Live sources measure the share instead, from the sampling session's own
	// Created_tmp_* (on a server with tmp_table_size <= 4M every SHOW GLOBAL
	// STATUS makes one on disk); these figures are the fallback for recordings
	// and captures without it. Trap: a counter the monitor moves.
	OwnTmpTablesPerSample     float64
	OwnTmpDiskTablesPerSample float64 `zero:"SHOW GLOBAL STATUS makes none on disk at the default tmp_table_size"`
}

func (c *TmpDiskConfig) defaults() {
	*c = TmpDiskConfig{
		TmpDiskShareWarn:          5,
		TmpDiskShareCrit:          25,
		TmpDiskRateWarn:           10,
		TmpDiskMinPerSec:          1,
		TmpDiskConfigMinUptime:    24 * time.Hour,
		TmpDiskConfigMinTables:    1000,
		OwnTmpTablesPerSample:     1,
		OwnTmpDiskTablesPerSample: 0,
	}
}
