package analyzers

import "testing"

func TestLogBufferWaits(t *testing.T) {
	runTimelines(t, IDLogBufferWaits, ruleLogic(IDLogBufferWaits), []timelineCase{
		{"over 10/s warns", series(4, counter(logWaits, 0, 25)), "...W"},
		{"any wait is info", series(4, counter(logWaits, 0, 2)), "...i"},
		{"no waits", series(4, counter(logWaits, 5, 0)), "...."},
		{"FLUSH STATUS costs one second, not the hold", series(8, counter(logWaits, 1e6, 25), flushStatusAt(3, logWaits)),
			"....WWWW"},
		{"quiet while the restarted server warms up", series(8, counter(logWaits, 0, 25), restartAt(3)),
			"........"},
		{"not reported", series(2, status("Uptime", "1000")), "NN"},
	})
	snaps := series(4, counter(logWaits, 0, 25), counter("Innodb_log_writes", 0, 300),
		vars("innodb_log_buffer_size", "8388608"))
	mustContain(t, lastFinding(t, ruleLogic(IDLogBufferWaits), snaps, IDLogBufferWaits), "25 waits/s",
		"Innodb_log_waits 25/s (25 in 1.0 s)", "Innodb_log_writes 300/s", "innodb_log_buffer_size=8M", "(now 8M)")
}
