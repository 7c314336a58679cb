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
