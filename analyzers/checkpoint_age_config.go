package analyzers

import "time"

// CheckpointConfig holds checkpoint_age_high's thresholds, each with its source and the trap it avoids.
// Embedded in Config; its defaults method sets the shipped values.
type CheckpointConfig struct {
	// CheckpointAgeWarn: % of the sync flush point below which the age is not
	// judged at all (LOG-01, DOL 60 %). CheckpointAgeCrit is kept for
	// configurations that set it; the rule's critical is the sync point
	// itself (PMM-C judges age against the sync threshold).
	// Trap: a level that is normal at rest: MariaDB 10.5+ and MySQL 8 flush
	// lazily, so 86 % with 38 bytes/s of redo is healthy. The level counts only
	// with CheckpointHeadroom*.
	CheckpointAgeWarn float64
	CheckpointAgeCrit float64
	// CheckpointHeadroomWarn / Crit: with the age past the async flush point
	// (where InnoDB starts flushing ahead of its writers), a warning / critical
	// when it still climbs, at the current rate, to the sync point (where
	// writers wait) within this long. UNKNOWN: five minutes gives a DBA time
	// to act; one minute does not. Trap: measuring to the log's capacity (or
	// to Innodb_checkpoint_max_age as if nothing happened before it): in
	// the routine-work review, three of five healthy write-heavy runs on a 96 MB redo log went
	// critical at 64–87 % of it with "5–22 s of headroom" while InnoDB's own
	// flush-ahead held the age below the sync point.
	CheckpointHeadroomWarn time.Duration
	CheckpointHeadroomCrit time.Duration
	// CheckpointStallIntervals: Innodb_buffer_pool_wait_free must have risen in
	// this many of the last SightingWindow intervals, with the age past the
	// async point, to count as writers stalling (UNKNOWN; design). Trap: one
	// wait-free tick, a burst the page cleaner absorbed, made the rule
	// critical (buffer_pool_wait_free names the tick by itself).
	CheckpointStallIntervals int
}

func (c *CheckpointConfig) defaults() {
	*c = CheckpointConfig{
		CheckpointAgeWarn:        60,
		CheckpointAgeCrit:        80,
		CheckpointHeadroomWarn:   5 * time.Minute,
		CheckpointHeadroomCrit:   time.Minute,
		CheckpointStallIntervals: 3,
	}
}
