package main

import (
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/internal/tmuxtest"
)

// TestMissingPrivilegesAreNamedOnScreen runs the dashboard as a user with
// only USAGE, on a server without performance_schema: it starts, every panel
// and rule that needs more names the privilege it lacks, the figures that
// need nothing still show, and it quits cleanly.
func TestMissingPrivilegesAreNamedOnScreen(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	srv := testdb.Start(t, "--performance-schema=OFF")
	srv.Exec(t, "CREATE USER 'watcher'@'localhost' IDENTIFIED BY 'w-pw'")
	sleepQuery(t, srv, "hidden_from_watcher")

	s := tmuxtest.Start(t, 200, 50, []string{"HOME=" + t.TempDir()},
		bin, "--no-defaults", "-S", srv.Socket, "-uwatcher", "-pw-pw", "--interval", "500ms")
	screen := s.WaitFor(20*time.Second,
		"n/a: only your own threads are visible: needs the PROCESS privilege", // processlist panel
		"n/a: needs the PROCESS privilege",                                    // InnoDB panel
		"full_scan_update", "long_transaction",
		"replication_lag", "needs the SLAVE MONITOR (or REPLICATION CLIENT) privilege",
		"rd rnd ") // the Server panel's rates, from the second sample on
	for _, line := range strings.Split(screen, "\n") {
		for _, rule := range []string{"full_scan_update", "long_transaction", "metadata_lock_pileup"} {
			if strings.Contains(line, rule) && !strings.Contains(line, "not applicable") {
				t.Errorf("%s runs without PROCESS: %q", rule, line)
			}
		}
	}
	if strings.Contains(screen, "hidden_from_watcher") {
		t.Errorf("another user's statement shown without PROCESS:\n%s", screen)
	}
	if strings.Contains(screen, "QPS n/a") {
		t.Errorf("status needs no privilege, yet QPS is n/a:\n%s", screen)
	}
	checkQPS(t, screen)
	s.QuitCleanly()
}

// TestPerformanceSchemaOffLosesNothingOnMariaDB: MariaDB's processlist and
// InnoDB status need no performance_schema, so a privileged user on a server
// without it sees full panels and no rule marked not applicable for it.
func TestPerformanceSchemaOffLosesNothingOnMariaDB(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	srv := testdb.Start(t, "--performance-schema=OFF")
	sleepQuery(t, srv, "seen_without_pfs")
	s := tmuxtest.Start(t, 200, 50, []string{"HOME=" + t.TempDir()},
		bin, "--no-defaults", "-S", srv.Socket, "-uroot", "--interval", "500ms")
	screen := s.WaitFor(20*time.Second, "seen_without_pfs", "ckpt age")
	// A panel whose sample overran its tick on a loaded machine says so:
	// that is not a part lost to performance_schema being off.
	screen = strings.ReplaceAll(screen, "n/a: timed out", "")
	for _, bad := range []string{"n/a:", "performance_schema", "privilege"} {
		if strings.Contains(screen, bad) {
			t.Errorf("screen says %q with every privilege:\n%s", bad, screen)
		}
	}
	s.QuitCleanly()
}
