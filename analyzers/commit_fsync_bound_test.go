package analyzers

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// commitLoad is autocommit INSERTs and InnoDB fsyncs per second.
func commitLoad(inserts, fsyncs float64) edit {
	return counters(map[string]float64{"Com_insert": inserts, dataFsyncs: fsyncs, "Com_commit": 0})
}

// flushingDisk is a device completing flushes per second at msEach.
func flushingDisk(name string, perSec, msEach float64) edit {
	return func(i int, s *snapshot.Snapshot) {
		h := hostOf(s)
		n := float64(i)
		h.Disks = append(h.Disks, snapshot.DiskCounters{Name: name, Writes: uint64(4 * perSec * n),
			WriteMS: uint64(4 * perSec * n * msEach), Flushes: uint64(perSec * n), FlushMS: uint64(perSec * n * msEach)})
	}
}

var flushAtCommit = vars("innodb_flush_log_at_trx_commit", "1", "sync_binlog", "0", "log_bin", "OFF")

func TestCommitFsyncBound(t *testing.T) {
	runTimelines(t, IDCommitFsyncBound, DefaultConfig(), []timelineCase{
		{"an fsync per commit on a fast disk is info", series(5, flushAtCommit, commitLoad(1500, 1600),
			flushingDisk("vda", 1600, 0.05)), "...ii"},
		{"an fsync per commit on a slow disk warns", series(5, flushAtCommit, commitLoad(300, 310),
			flushingDisk("sda", 310, 3)), "...WW"},
		{"remote server: the pattern alone is info", series(5, flushAtCommit, commitLoad(1500, 1600), remote), "...ii"},
		{"flush at commit = 2 is quiet", series(5, vars("innodb_flush_log_at_trx_commit", "2"), commitLoad(2300, 260),
			flushingDisk("vda", 260, 3)), "....."},
		{"a light load fsyncs per commit too, and nobody waits", series(5, flushAtCommit, commitLoad(20, 21),
			flushingDisk("sda", 21, 8)), "....."},
		{"group commit sharing cheap fsyncs is quiet", series(5, flushAtCommit, commitLoad(3000, 300),
			flushingDisk("sda", 300, 0.3)), "....."},
		{"group commit does not hide flushes that take a quarter of the time", series(5, flushAtCommit,
			commitLoad(3000, 900), flushingDisk("sda", 900, 0.3)), "...ii"},
		{"the monthly-incident reproductions: 1,722 commits/s on 449 fsyncs/s of 2 ms each", series(5, flushAtCommit,
			commitLoad(1722, 449), flushingDisk("sda", 449, 2)), "...WW"},
		{"other processes' flushes on the device are not mysqld's", series(5, flushAtCommit,
			commitLoad(1500, 100), flushingDisk("sda", 3000, 0.3)), "....."},
		{"a quarter of the time flushing while commits are caught waiting warns", series(5, flushAtCommit,
			commitLoad(3000, 900), flushingDisk("sda", 900, 0.3), committing(16, 6)), "...WW"},
		{"the redo log's device is judged, not a neighbour flushing more often", series(5, flushAtCommit,
			commitLoad(300, 310), flushingDisk("sda", 310, 3), flushingDisk("vda", 5000, 0.05),
			mounted(snapshot.Mount{Point: "/", Device: "vda"}, snapshot.Mount{Point: "/var/lib/mysql", Device: "sda"})), "...WW"},
		{"without a mount table the busiest flusher stands for it", series(5, flushAtCommit,
			commitLoad(300, 310), flushingDisk("sda", 310, 3), flushingDisk("vda", 5000, 0.05)), "...ii"},
		{"no setting in this source", series(2, func(_ int, s *snapshot.Snapshot) { s.Variables = nil }), "NN"},
		{"no fsync counter", series(2, flushAtCommit), "NN"},
	})
	f := lastFinding(t, DefaultConfig(), series(5, flushAtCommit, commitLoad(300, 310), flushingDisk("sda", 310, 3),
		vars("sync_binlog", "1", "innodb_flush_method", "O_DIRECT")), IDCommitFsyncBound)
	mustContain(t, f, "commits wait for the redo log fsync: sda busy flushing 93 % of the time for 300 commits/s (310 fsyncs/s)",
		"Innodb_data_fsyncs/s 310; write commits/s 300 (the larger of Com_commit and autocommit DML statements)",
		"disk sda: 310 flushes/s at 3.00 ms each (write await 3.00 ms): busy flushing 93 % of the time; at this latency one connection commits at most 333 times a second",
		"innodb_flush_log_at_trx_commit=1, sync_binlog=1, log_bin=OFF, innodb_flush_method=O_DIRECT",
		"innodb_flush_log_at_trx_commit=2, which writes at commit and fsyncs once a second",
		"an OS crash or power loss loses up to the last second", "battery/flash-backed write cache", "binlog group commit")
	// With the binary log on, MariaDB counts the commits exactly.
	f = lastFinding(t, DefaultConfig(), series(5, flushAtCommit, vars("log_bin", "ON"), commitLoad(900, 700),
		counter("Binlog_commits", 0, 650), remote), IDCommitFsyncBound)
	mustContain(t, f, "650 commits/s, 700 fsyncs/s", "(Binlog_commits)")
	f = lastFinding(t, DefaultConfig(), series(5, flushAtCommit, commitLoad(1722, 449), flushingDisk("sda", 449, 2),
		committing(16, 6)), IDCommitFsyncBound)
	mustContain(t, f, "group commit shares each fsync among 3.8 commits",
		"over the last 5 samples, 30 of 80 working-thread sightings were in a commit state (38 %)")
}

// committing is n working threads inserting, of which k are in "Commit".
func committing(n, k int) edit {
	return func(_ int, s *snapshot.Snapshot) {
		for i := range n {
			state := "Update"
			if i < k {
				state = "Commit"
			}
			s.Processlist = append(s.Processlist, query(int64(100+i), 0, state, "INSERT INTO shop.orders VALUES (1)"))
		}
	}
}
