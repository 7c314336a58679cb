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
	runTimelines(t, IDCheckpointAgeHigh, DefaultConfig(), []timelineCase{
		{"MySQL 8: 70 % of redo capacity", series(4, logSection(70*mib, 100*mib)), "..WW"},
		{"85 % is critical", series(3, logSection(85*mib, 100*mib)), "..C"},
		{"healthy", series(3, logSection(10*mib, 100*mib)), "..."},
		{"capacity from variables", series(3, logSection(60*mib, 0), vars("innodb_log_file_size", fmt.Sprint(48*mib),
			"innodb_log_files_in_group", "2")), "..W"},
		{"MariaDB status variables", series(3, maria(90*mib, 100*mib)), "..C"},
		{"capacity unknown", series(2, logSection(90*mib, 0)), "NN"},
		{"no InnoDB status", series(2), "NN"},
		{"flapping around 60 %", series(8, func(i int, s *snapshot.Snapshot) {
			logSection(int64(59+2*(i%2))*mib, 100*mib)(i, s)
		}), "........"},
	})
	f := lastFinding(t, DefaultConfig(), series(3, logSection(70*mib, 100*mib)), IDCheckpointAgeHigh)
	mustContain(t, f, "checkpoint age at 70 % of the redo log", "checkpoint age 70M of 100M (70 %", "innodb_io_capacity")
}
