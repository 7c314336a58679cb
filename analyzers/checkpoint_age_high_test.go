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
	waitFreeAt := func(idx ...int) edit {
		return func(i int, s *snapshot.Snapshot) {
			n := 0
			for _, k := range idx {
				if k <= i {
					n++
				}
			}
			s.Status["Innodb_buffer_pool_wait_free"] = fmt.Sprint(100 + 7*n)
		}
	}
	// MySQL, 100M of redo: flushing ahead from 78.75M, writers wait from 84.4M.
	// MariaDB, Innodb_checkpoint_max_age 100M: ahead from 87.5M, wait from 100M.
	runTimelines(t, IDCheckpointAgeHigh, DefaultConfig(), []timelineCase{
		{"MySQL 8: past the async point, the sync point seconds away", series(5, climbLog(80*mib, 1*mib, 100*mib), busy), "..CCC"},
		{"MySQL 8: at the sync point, writers wait", series(3, logSection(86*mib, 100*mib), busy), "..C"},
		{"healthy", series(3, logSection(10*mib, 100*mib), busy), "..."},
		{"capacity from variables: at its sync point", series(4, logSection(85*mib, 0), busy,
			vars("innodb_log_file_size", fmt.Sprint(48*mib), "innodb_log_files_in_group", "2")), "..CC"},
		// Climbing toward the async point is how a lazy flusher works
		// (MariaDB 10.11 under sysbench: +1 MB/s, no page flushed).
		{"MariaDB: climbing to the async point is not a finding", series(4, climbing(70*mib, 5*mib, 100*mib), busy), "...."},
		{"MySQL: climbing to the async point is not a finding", series(6, climbLog(50*mib, 1*mib, 100*mib), busy), "......"},
		{"MariaDB: past the async point, held level by flushing ahead: info", series(5, maria(92*mib, 100*mib), busy), "..iii"},
		// The traps: a lazily flushing server at rest keeps a high age, and
		// under a steady load adaptive flushing holds it level.
		{"86 % at rest (38 bytes/s of redo)", series(5, maria(67*mib, 77*mib), counter("Innodb_os_log_written", 1e9, 38)), "....."},
		{"80 % held level under a steady load", series(6, maria(80*mib, 100*mib), busy), "......"},
		{"86 % with no rate yet (one sample)", series(1, maria(67*mib, 77*mib)), "."},
		{"past the async point, the sync point minutes away: warning", series(5, climbing(88*mib, 50<<10, 100*mib),
			counter("Innodb_os_log_written", 1e9, 50<<10)), "..WWW"},
		{"climb faster than the redo written is bounded by it", series(5, climbing(88*mib, 1*mib, 100*mib),
			counter("Innodb_os_log_written", 1e9, 100<<10)), "..WWW"},
		// The routine-work review: one Innodb_buffer_pool_wait_free tick made it critical.
		{"one wait-free tick past the async point is not a stall", series(6, maria(92*mib, 100*mib), busy,
			waitFreeAt(2)), "..iiii"},
		{"free-page waits in 3 intervals past the async point: writers stall", series(6, maria(92*mib, 100*mib), busy,
			waitFreeAt(1, 2, 3)), "..iCCC"},
		{"free-page waits below the async point are buffer_pool_wait_free's", series(6, maria(70*mib, 100*mib),
			counter("Innodb_os_log_written", 1e9, 38), counter("Innodb_buffer_pool_wait_free", 0, 5)), "......"},
		// The routine-work review, sysbench at its highest steady rate: +2 MB/s up to the
		// async point (181M of 207M), then held at 181-183M by the flush
		// ahead. The climb before the async point is not the climb past it.
		{"climbed to the async point, then held there: info", series(10, busy, status2(func(i int) map[string]string {
			ages := []int{165, 169, 173, 177, 181, 182, 183, 183, 182, 182}
			return map[string]string{"Innodb_checkpoint_age": fmt.Sprint(ages[i] * mib),
				"Innodb_checkpoint_max_age": fmt.Sprint(207 * mib)}
		})), ".......iii"},
		{"capacity unknown", series(2, logSection(90*mib, 0)), "NN"},
		{"no InnoDB status", series(2), "NN"},
		{"flapping around 60 %", series(8, busy, func(i int, s *snapshot.Snapshot) {
			logSection(int64(59+2*(i%2))*mib, 100*mib)(i, s)
		}), "........"},
	})
	f := lastFinding(t, DefaultConfig(), series(4, climbLog(80*mib, 1*mib, 100*mib), busy), IDCheckpointAgeHigh)
	mustContain(t, f, "checkpoint age 98 % of the sync flush point, ~1.4 s from it at 1M/s of redo",
		"checkpoint age 83M; InnoDB flushes ahead from 79M and makes writers wait from 84M",
		"redo log capacity 100M (age 83 % of it)", "the age moved +1M/s over the last 3.0 s",
		"innodb_io_capacity")
}
