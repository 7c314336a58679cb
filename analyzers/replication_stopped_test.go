package analyzers

import (
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestReplicationStopped(t *testing.T) {
	dup := channel("b", "Slave_SQL_Running", "No", "Seconds_Behind_Master", "", "Last_SQL_Errno", "1062",
		"Last_SQL_Error", "Could not execute Write_rows_v1 event on table r.t; Duplicate entry '5' for key 'PRIMARY'")
	runTimelines(t, IDReplicationStopped, DefaultConfig(), []timelineCase{
		{"SQL thread stopped on an error", series(3, channel("a"), dup), ".CC"},
		{"both running", series(3, channel("a"), channel("b")), "..."},
		{"stopped by hand", series(3, channel("a", "Slave_IO_Running", "No", "Slave_SQL_Running", "No")), ".WW"},
		{"IO connecting at start-up", series(3, channel("a", "Slave_IO_Running", "Connecting")), "..."},
		{"IO connecting after an error", series(3, channel("a", "Slave_IO_Running", "Connecting",
			"Last_IO_Errno", "2003", "Last_IO_Error", "error connecting to master")), ".CC"},
		{"old single-row recording", series(3, replica("Slave_SQL_Running", "No", "Last_SQL_Error", "x",
			"Last_SQL_Errno", "1146")), ".CC"},
		{"not a replica", series(2), "NN"},
	})
	f := lastFinding(t, DefaultConfig(), series(3, channel("a"), dup), IDReplicationStopped)
	mustContain(t, f, "SQL thread of channel 'b' stopped by error 1062",
		"channel 'b' (from src-b:3306): SQL thread not running (IO Yes, SQL No)",
		"Last_SQL_Error 1062: Could not execute Write_rows_v1 event on table r.t; Duplicate entry '5'")
	for _, e := range f.Evidence {
		if strings.Contains(e, "channel 'a'") {
			t.Errorf("a running channel is named: %q", e)
		}
	}
	if f.Severity != snapshot.Critical {
		t.Errorf("severity %v", f.Severity)
	}
}

// The routine-work review: a thread the monitor saw stop without an error is a pause (a
// DBA's STOP SLAVE SQL_THREAD, a backup's --safe-slave-backup): info for
// ReplicaStoppedGrace (REPL-02: APA 1 m), a warning after; an error is
// critical at once, paused or not.
func TestReplicationStoppedPause(t *testing.T) {
	sqlStopped := replica("Slave_SQL_Running", "No", "Seconds_Behind_Master", "")
	pause := func(from, to int) edit {
		return func(i int, s *snapshot.Snapshot) {
			if i >= from && i < to {
				sqlStopped(i, s)
			} else {
				replica("Seconds_Behind_Master", "0")(i, s)
			}
		}
	}
	broke := func(from int) edit {
		return func(i int, s *snapshot.Snapshot) {
			if i >= from {
				replica("Slave_SQL_Running", "No", "Seconds_Behind_Master", "", "Last_SQL_Errno", "1032",
					"Last_SQL_Error", "Can't find record in 't'")(i, s)
			} else {
				replica("Seconds_Behind_Master", "0")(i, s)
			}
		}
	}
	runTimelines(t, IDReplicationStopped, DefaultConfig(), []timelineCase{
		// Stopped at 3 for 30 s, raised after 2 s, cleared 3 s after the resume.
		{"paused 30 s", series(40, pause(3, 33)),
			"...." + strings.Repeat("i", 31) + "....."},
		// Stopped at 3 and left: info until a minute, then a warning.
		{"stopped and left", series(70, pause(3, 70)),
			"...." + strings.Repeat("i", 59) + strings.Repeat("W", 7)},
		{"stopped by an error", series(8, broke(3)), "....CCCC"},
	})
	f := lastFinding(t, DefaultConfig(), series(25, pause(3, 70)), IDReplicationStopped)
	mustContain(t, f, "SQL thread of default channel stopped 21 s ago without an error (paused)",
		"stopped without an error 21 s ago, while the monitor watched", "a warning after 60 s",
		"If the pause is deliberate")
	// The advice speaks the server's spelling: MySQL 8.4 and its calendar
	// versions took START SLAVE away.
	for version, want := range map[string]string{"5.7.44": "after START SLAVE. If nobody stopped it, read SHOW SLAVE STATUS",
		"26.7.0":           "after START REPLICA. If nobody stopped it, read SHOW REPLICA STATUS",
		"10.11.19-MariaDB": "after START REPLICA"} {
		on := func(_ int, s *snapshot.Snapshot) { s.Server.Version = version }
		f := lastFinding(t, DefaultConfig(), series(25, pause(3, 70), on), IDReplicationStopped)
		if !strings.Contains(f.Advice, want) {
			t.Errorf("%s: advice %q, want %q", version, f.Advice, want)
		}
	}
}
