package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The server (re)started recently: its caches are cold and every counter began
// again, so ratio rules stay quiet for a while (§1.2). A restart seen happening
// (Uptime went down between frames) is a warning; a server found freshly
// started is info (APA MysqlRestarted). Either holds while Uptime is below
// Config.RestartedRecent (PMM-A mysql_restarted).
func checkServerRestarted(w *window, c *Config) verdict {
	up, ok := w.snap.Uptime()
	if !ok || time.Duration(up)*time.Second >= c.RestartedRecent {
		return quiet()
	}
	ev := []string{fmt.Sprintf("Uptime %d s", up)}
	sev, title := snapshot.Info, fmt.Sprintf("server started %s ago", fmtDuration(time.Duration(up)*time.Second))
	if before, at, seen := uptimeDrop(w); seen {
		sev = snapshot.Warning
		title = fmt.Sprintf("server restarted %s ago", fmtDuration(time.Duration(up)*time.Second))
		ev = append(ev, fmt.Sprintf("Uptime went from %d s down to %d s at %s", before, upAt(w, at),
			w.frames[at].Snapshot.Time.UTC().Format("15:04:05 UTC")))
	}
	if v := w.snap.Server.Version; v != "" {
		ev = append(ev, "version "+v)
	}
	return raise(sev, title, ev,
		"Find out why it restarted (error log: crash, OOM killer, an operator); expect cold caches and "+
			"slower queries until the buffer pool warms up.", nil)
}

// uptimeDrop finds the latest frame in the window whose Uptime is below the
// last Uptime seen before it; frames without status (server down) are skipped.
func uptimeDrop(w *window) (before int64, at int, seen bool) {
	last, have := int64(0), false
	for i, f := range w.frames {
		up, ok := f.Snapshot.Uptime()
		if !ok {
			continue
		}
		if have && up < last {
			before, at, seen = last, i, true
		}
		last, have = up, true
	}
	return before, at, seen
}

func upAt(w *window, i int) int64 {
	up, _ := w.frames[i].Snapshot.Uptime()
	return up
}
