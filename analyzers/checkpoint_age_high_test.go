package analyzers

import (
	"fmt"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

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
	// Redo written per second decides: 10M/s leaves 30M of headroom for 3 s.
	busy := counter("Innodb_os_log_written", 1e9, 10*mib)
	runTimelines(t, IDCheckpointAgeHigh, DefaultConfig(), []timelineCase{
		{"MySQL 8: 70 % of redo capacity, redo written fast", series(5, logSection(70*mib, 100*mib), busy), "...CC"},
		{"85 % is critical", series(4, logSection(85*mib, 100*mib), busy), "...C"},
		{"healthy", series(3, logSection(10*mib, 100*mib), busy), "..."},
		{"capacity from variables", series(4, logSection(60*mib, 0), busy, vars("innodb_log_file_size", fmt.Sprint(48*mib),
			"innodb_log_files_in_group", "2")), "...C"},
		{"MariaDB status variables", series(4, maria(90*mib, 100*mib), busy), "...C"},
		// The trap: a lazily flushing server at rest keeps a high age.
		{"86 % at rest (38 bytes/s of redo)", series(5, maria(67*mib, 77*mib), counter("Innodb_os_log_written", 1e9, 38)), "....."},
		{"86 % with no rate yet (one sample)", series(1, maria(67*mib, 77*mib)), "."},
		{"headroom minutes away is a warning", series(5, maria(70*mib, 100*mib), counter("Innodb_os_log_written", 1e9, 200<<10)), "...WW"},
		{"already stalling on free pages", series(4, maria(70*mib, 100*mib), counter("Innodb_os_log_written", 1e9, 38),
			counter("Innodb_buffer_pool_wait_free", 0, 5)), "...C"},
		{"capacity unknown", series(2, logSection(90*mib, 0)), "NN"},
		{"no InnoDB status", series(2), "NN"},
		{"flapping around 60 %", series(8, busy, func(i int, s *snapshot.Snapshot) {
			logSection(int64(59+2*(i%2))*mib, 100*mib)(i, s)
		}), "........"},
	})
	f := lastFinding(t, DefaultConfig(), series(4, logSection(70*mib, 100*mib), busy), IDCheckpointAgeHigh)
	mustContain(t, f, "checkpoint age at 70 % of the redo log, ~3.0 s of headroom at 10M/s of redo",
		"checkpoint age 70M of 100M (70 %", "sync flush point is ~3.0 s away", "innodb_io_capacity")
}
