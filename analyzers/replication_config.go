package analyzers

import "time"

// ReplicationConfig holds replication_lag's and replication_stopped's thresholds, each with its source and the trap it avoids.
// Embedded in Config; its defaults method sets the shipped values.
type ReplicationConfig struct {
	// ReplicaLagWarn/Crit (REPL-01: APA/MX 30 s, PMM-A 300 s).
	// Trap: the lag a stopped SQL thread shows as NULL.
	ReplicaLagWarn time.Duration
	ReplicaLagCrit time.Duration
	// ReplicaCatchUpETA: a channel whose lag falls fast enough to be gone
	// within this is catching up, and replication_lag says so at info
	// (MX mixin MySQLReplicationLag: lag > 30 s AND predict_linear(lag[5m],
	// 2m) > 0, i.e. it alerts only on a lag not predicted gone within 2
	// minutes). Trap: a replica that a DBA or a job (mariabackup
	// --safe-slave-backup, mariadb-dump --dump-slave) paused and resumed is
	// behind by the pause, and warning about it while it catches up at
	// several seconds a second cries wolf.
	ReplicaCatchUpETA time.Duration
	// ReplicaCatchUpMinSpan: how long a fall of the lag must be measured
	// before it counts as catching up (UNSOURCED: Seconds_Behind jumps as
	// the SQL thread moves from one event to the next, and a big
	// transaction's lag falls at once when it commits). After a resume the
	// monitor saw, the pause explains the lag and the fall is measured from
	// the resume; without one it needs twice this.
	ReplicaCatchUpMinSpan time.Duration
	// ReplicaResumeGrace: for this long after a resume the monitor saw, a
	// lag that falls at all, or holds without growing past the lag the
	// resume found, is a catch-up, whatever its ETA (MX judges the trend
	// over 5 minutes, predict_linear(lag[5m], 2m); the first seconds after a
	// resume are no trend). Trap: a starved replica's SQL thread ramps up
	// (seen in the full suite: 0.3 s/s over the first 11 s, an ETA of 133 s
	// and a warning, then 0.5 s/s and in sync 37 s after the resume; another
	// run: 57 s held for 11 s, then falling). Past it the ETA decides again.
	ReplicaResumeGrace time.Duration
	// ReplicaStoppedGrace: a replication thread seen stopping without an
	// error is named at info this long before replication_stopped warns
	// (REPL-02: APA MysqlSlaveSqlThreadNotRunning for 1m; MX 2m). Trap: a
	// deliberate pause (STOP SLAVE SQL_THREAD by a DBA, a backup's
	// --safe-slave-backup) of a few tens of seconds. A thread stopped by an
	// error is critical at once: the error proves it; a thread found
	// stopped when the monitor starts is a warning at once (how long it has
	// been stopped is not known).
	ReplicaStoppedGrace time.Duration
}

func (c *ReplicationConfig) defaults() {
	*c = ReplicationConfig{
		ReplicaLagWarn:        30 * time.Second,
		ReplicaLagCrit:        300 * time.Second,
		ReplicaCatchUpETA:     2 * time.Minute,
		ReplicaCatchUpMinSpan: 5 * time.Second,
		ReplicaResumeGrace:    30 * time.Second,
		ReplicaStoppedGrace:   time.Minute,
	}
}
