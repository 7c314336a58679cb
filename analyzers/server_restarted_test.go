package analyzers

import (
	"testing"
	"time"
)

func TestServerRestarted(t *testing.T) {
	cfg := DefaultConfig()
	cfg.RestartedRecent = 10 * time.Second
	runTimelines(t, IDServerRestarted, cfg, []timelineCase{
		{"uptime went down: warning while young", series(20, restartAt(3)), "...WWWWW............"},
		{"restart across an outage", series(12, during(2, 4, down), restartAt(4)), "....WWWWW..."},
		{"monitor started on a young server", series(4, status("Uptime", "7")), "iiii"},
		{"old server", series(3), "..."},
	})
	f := lastFinding(t, cfg, series(6, restartAt(3)), IDServerRestarted)
	mustContain(t, f, "server restarted 7.0 s ago", "Uptime went from 1002 s down to 5 s at 10:00:03 UTC",
		"version 10.11.19-MariaDB", "error log")
}
