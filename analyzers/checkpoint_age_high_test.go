package analyzers

import (
	"fmt"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// climbing makes the checkpoint age rise perSec bytes a second (MariaDB status).
func climbing(base, perSec, max float64) edit {
	return status2(func(i int) map[string]string {
		return map[string]string{"Innodb_checkpoint_age": fmt.Sprint(base + perSec*float64(i)),
			"Innodb_checkpoint_max_age": fmt.Sprint(max)}
	})
}

func status2(f func(i int) map[string]string) edit {
	return func(i int, s *snapshot.Snapshot) {
		for k, v := range f(i) {
			s.Status[k] = v
		}
	}
}

// logSection sets the parsed LOG section: age bytes against capacity (0 = unknown).
func logSection(age, capacity int64) edit {
	return func(_ int, s *snapshot.Snapshot) {
		s.InnoDB = &snapshot.InnoDBStatus{Log: snapshot.InnoDBLog{Present: true, SequenceNumber: 5e9,
			LastCheckpoint: 5e9 - age, CheckpointAge: age, CapacityBytes: capacity}}
	}
}

func TestCheckpointAgeHigh(t *testing.T) {
	const mib = 1 << 20
	maria := func(age, max int64) edit {
		return status("Innodb_checkpoint_age", fmt.Sprint(age), "Innodb_checkpoint_max_age", fmt.Sprint(max))
	}
	// The age's climb decides, bounded by the redo written per second.
	busy := counter("Innodb_os_log_written", 1e9, 10*mib)
	climbLog := func(base, perSec, capacity int64) edit {
		return func(i int, s *snapshot.Snapshot) { logSection(base+perSec*int64(i), capacity)(i, s) }
	}
	runTimelines(t, IDCheckpointAgeHigh, DefaultConfig(), []timelineCase{
		{"MySQL 8: climbing past 60 % toward the sync point", series(5, climbLog(60*mib, 5*mib, 100*mib), busy), "...CC"},
		{"healthy", series(3, logSection(10*mib, 100*mib), busy), "..."},
		{"capacity from variables", series(4, climbLog(60*mib, 2*mib, 0), busy, vars("innodb_log_file_size", fmt.Sprint(48*mib),
			"innodb_log_files_in_group", "2")), "...C"},
		{"MariaDB status variables", series(4, climbing(70*mib, 5*mib, 100*mib), busy), "...C"},
		// The traps: a lazily flushing server at rest keeps a high age, and
		// under a steady load adaptive flushing holds it level.
		{"86 % at rest (38 bytes/s of redo)", series(5, maria(67*mib, 77*mib), counter("Innodb_os_log_written", 1e9, 38)), "....."},
		{"70 % held level under a steady load", series(6, maria(70*mib, 100*mib), busy), "......"},
		{"86 % with no rate yet (one sample)", series(1, maria(67*mib, 77*mib)), "."},
		{"headroom minutes away is a warning", series(5, climbing(60*mib, 200<<10, 100*mib),
			counter("Innodb_os_log_written", 1e9, 200<<10)), "...WW"},
		{"climb faster than the redo written is bounded by it", series(5, climbing(60*mib, 3*mib, 100*mib),
			counter("Innodb_os_log_written", 1e9, 150<<10)), "...WW"},
		{"already stalling on free pages", series(4, maria(70*mib, 100*mib), counter("Innodb_os_log_written", 1e9, 38),
			counter("Innodb_buffer_pool_wait_free", 0, 5)), "...C"},
		{"capacity unknown", series(2, logSection(90*mib, 0)), "NN"},
		{"no InnoDB status", series(2), "NN"},
		{"flapping around 60 %", series(8, busy, func(i int, s *snapshot.Snapshot) {
			logSection(int64(59+2*(i%2))*mib, 100*mib)(i, s)
		}), "........"},
	})
	f := lastFinding(t, DefaultConfig(), series(4, climbLog(60*mib, 5*mib, 100*mib), busy), IDCheckpointAgeHigh)
	mustContain(t, f, "checkpoint age at 75 % of the redo log, ~5.0 s of headroom at 10M/s of redo",
		"checkpoint age 75M of 100M (75 %", "the age grew 5M/s over the last 3.0 s", "sync flush point is ~5.0 s away",
		"innodb_io_capacity")
}
