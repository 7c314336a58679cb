package analyzers

import (
	"fmt"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestServerRestarted(t *testing.T) {
	cfg := DefaultConfig()
	cfg.RestartedRecent = 10 * time.Second
	runTimelines(t, IDServerRestarted, cfg, []timelineCase{
		{"uptime went down: warning while young", series(20, restartAt(3)), "...WWWWW............"},
		{"restart across an outage", series(12, during(2, 4, down), restartAt(4)), "....WWWWW..."},
		// The trap: a young server is not a restart seen; the header says "up 7 s".
		{"monitor started on a young server", series(4, status("Uptime", "7")), "...."},
		{"old server", series(3), "..."},
		{"quick restart of a young server, unseen by Uptime alone",
			series(12, uptimeFrom(0, 1), during(2, 10, down), uptimeFrom(10, 4)), "..........WW"},
	})
	quick := lastFinding(t, cfg, series(12, uptimeFrom(0, 1), during(2, 10, down), uptimeFrom(10, 4)), IDServerRestarted)
	mustContain(t, quick, "server restarted", "Uptime 4 s at 10:00:10 UTC after 2 s at 10:00:01 UTC",
		"started again at 10:00:06 UTC")
	f := lastFinding(t, cfg, series(6, restartAt(3)), IDServerRestarted)
	mustContain(t, f, "server restarted 7.0 s ago", "Uptime went from 1002 s down to 5 s at 10:00:03 UTC",
		"version 10.11.19-MariaDB", "error log")
}

// uptimeFrom sets Uptime to start, start+1, ... from frame k on.
func uptimeFrom(k, start int) edit {
	return func(i int, s *snapshot.Snapshot) {
		if i >= k {
			s.Status["Uptime"] = fmt.Sprint(start + i - k)
		}
	}
}
