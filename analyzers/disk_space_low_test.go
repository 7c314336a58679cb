package analyzers

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// filesystem puts one filesystem of size bytes in each snapshot, with avail
// bytes at the first falling by fall bytes per second.
func filesystem(path string, size, avail, fall uint64, roles ...string) edit {
	return func(i int, s *snapshot.Snapshot) {
		s.Filesystems = append(s.Filesystems, snapshot.Filesystem{Path: path, Roles: roles, SizeBytes: size,
			AvailBytes: avail - fall*uint64(i), FreeBytes: avail - fall*uint64(i)})
	}
}

func TestDiskSpaceLow(t *testing.T) {
	const g = 1 << 30
	runTimelines(t, IDDiskSpaceLow, DefaultConfig(), []timelineCase{
		{"plenty free", series(3, filesystem("/var/lib/mysql", 100*g, 60*g, 0, "datadir")), "..."},
		{"8 % free", series(3, filesystem("/var/lib/mysql", 100*g, 8*g, 0, "datadir")), "WWW"},
		{"2 % free", series(2, filesystem("/var/lib/mysql", 100*g, 2*g, 0, "datadir", "binlog")), "CC"},
		// 15 G free falling 10 M/s: full in 25 minutes, seen once 30 s of readings exist.
		{"filling in 25 minutes", series(33, filesystem("/data", 100*g, 15*g, 10<<20, "datadir")),
			"..............................WWW"},
		// 19 G free falling 200 M/s: full in 90 s, still over 10 % free at the end.
		{"filling in 90 s", series(32, filesystem("/data", 100*g, 19*g, 200<<20, "datadir")),
			"..............................CC"},
		// The trap: a burst of writes on a roomy disk, "full in 2.5 minutes"
		// from 30 G free (30 %): shown, not judged.
		{"a burst on a roomy disk", series(32, filesystem("/data", 100*g, 30*g, 200<<20, "datadir")),
			"................................"},
		{"a slow fall", series(32, filesystem("/data", 100*g, 60*g, 1<<20, "datadir")), "................................"},
		{"remote, nothing waits", series(2, noFilesystems), ".."},
	})
	waiting := procs(query(9, 70, "Waiting for someone to free space", "INSERT INTO t VALUES (1)"))
	f := lastFinding(t, DefaultConfig(), series(2, waiting), IDDiskSpaceLow)
	mustContain(t, f, "1 thread waits for disk space", "thread 9", "cannot be read from here", "PURGE BINARY LOGS")
	if f.Severity != snapshot.Critical {
		t.Errorf("threads waiting for space: %s, want critical", f.Severity)
	}
	f = lastFinding(t, DefaultConfig(), series(33, filesystem("/data", 100*g, 15*g, 10<<20, "datadir", "tmpdir"),
		filesystem("/", 10*g, 9*g, 0, "binlog")), IDDiskSpaceLow)
	mustContain(t, f, "/data (datadir, tmpdir) fills up in about", "falling 10M/s over 32 s", "/ (binlog): 9.0G free of 10.0G (90.0 %); not falling over 32 s")
}

func noFilesystems(_ int, s *snapshot.Snapshot) { s.Filesystems = nil }
