package analyzers

// BufferPoolMissConfig holds buffer_pool_miss's thresholds, each with its source and the trap it avoids.
// Embedded in Config; its defaults method sets the shipped values.
type BufferPoolMissConfig struct {
	// BufferPoolHitWarn/Crit are hit % = 100*(1 - reads/read_requests)
	// (BP-01: MT < 90 warn, DOL <= 80 red).
	// Trap: the since-start-up ratio (MT); judged per interval.
	BufferPoolHitWarn float64
	BufferPoolHitCrit float64
	// BufferPoolMinRequests: read requests per second below which the ratio is
	// noise (§1.4, UNKNOWN).
	// Trap: a ratio over a near-zero denominator (an idle server's few reads
	// after a restart are all misses).
	BufferPoolMinRequests float64
	// BufferPoolMinReadsPerSec: disk reads per second below which misses are
	// not an incident whatever the ratio (BP-01 says the absolute floor is
	// UNKNOWN, device dependent; 100/s is about what one spinning disk serves
	// in random reads, and a fraction of any SSD's). Trap: a quiet server's
	// few misses (500 requests/s with 60 reads = 88 %) alarmed as loudly as a
	// pool streaming thousands of pages a second.
	BufferPoolMinReadsPerSec float64
	// BufferPoolFillingFreeShare: with more than this % of the pool free (and
	// more free pages than innodb_lru_scan_depth, which the page cleaner keeps
	// free on a full pool), misses are first reads into a pool that is not
	// full, and stay at info; so do misses while Innodb_buffer_pool_load_status
	// says a saved pool is loading (BP-01 trap: warm-up; UNKNOWN share).
	// Trap: a restarted server's cold pool warming under reads judged as a
	// pool too small for the working set.
	BufferPoolFillingFreeShare float64
	// BufferPoolMissesPerWrite: disk reads per row written at or above which,
	// with more rows written than read, the misses are writes landing at
	// random in an index (the clustered-index write-up: random primary-key order 200× slower
	// than sequential; a sequential key appends and misses nothing; UNKNOWN,
	// design). Trap: advising an index for misses an index cannot cure.
	BufferPoolMissesPerWrite float64
	// BufferPoolScanDepthShare: when the pages the page cleaner keeps free
	// (innodb_lru_scan_depth/2 on MariaDB 10.6+) are at least this % of the
	// pool, the misses are named as that reserve crowding the data out, and
	// lowering innodb_lru_scan_depth leads the advice (half: lowering it then
	// at least doubles the pages left for data; design). Trap: advising only
	// a bigger pool when one SET GLOBAL frees three quarters of it; and,
	// below half, leading with the scan depth where a full scan streams
	// through the pool (the bundled incident: 38 % on a 32M pool).
	BufferPoolScanDepthShare float64

	// BufferPoolRAMShareLow/High: % of the host's RAM the buffer pool should
	// get on a server that runs nothing else (BP-03; the InnoDB tuning guide: "70–80 %
	// of the available memory"). buffer_pool_miss's advice names the low end
	// of MemTotal when the server is local and its pool is below it. Trap
	// avoided: advising a number for a remote server's RAM, which the monitor
	// cannot see (it then sizes against InnoDB's files, or gives none).
	BufferPoolRAMShareLow  float64
	BufferPoolRAMShareHigh float64
}

func (c *BufferPoolMissConfig) defaults() {
	*c = BufferPoolMissConfig{
		BufferPoolHitWarn:          90,
		BufferPoolHitCrit:          80,
		BufferPoolMinRequests:      100,
		BufferPoolMinReadsPerSec:   100,
		BufferPoolFillingFreeShare: 10,
		BufferPoolMissesPerWrite:   0.2,
		BufferPoolScanDepthShare:   50,
		BufferPoolRAMShareLow:      70,
		BufferPoolRAMShareHigh:     80,
	}
}
