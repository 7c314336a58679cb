package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// IDServerRestarted names the findings of server_restarted: a contract (the
// README's findings table), stable, never reused.
const IDServerRestarted = "server_restarted"

// RestartConfig holds server_restarted's thresholds, each with its source and the
// trap it avoids.
type RestartConfig struct {
	// RestartedRecent: a server up for less than this has just (re)started
	// (PMM-A mysql_restarted: Uptime < 300 s).
	// server_restarted is raised only when a restart is observed. Trap: a
	// server merely young when the monitor starts (the header says "up 46 s").
	RestartedRecent time.Duration
}

func (c *RestartConfig) defaults() {
	*c = RestartConfig{
		RestartedRecent: 300 * time.Second,
	}
}

// serverRestartedRule is server_restarted in the rules table (rule.go). The
// monitor's own view: say it at once.
var serverRestartedRule = rule{id: IDServerRestarted, check: checkServerRestarted, persist: persistFor(1*time.Second, 1*time.Second)}

// The server restarted while the monitor watched (Uptime went down between
// frames, or the boot time moved): its caches are cold and every counter began
// again, so ratio rules stay quiet for a while (§1.2). A server merely found
// young when the monitor starts is not a finding: the header says "up 46 s".
// Holds while Uptime is below Config.RestartedRecent (PMM-A mysql_restarted).
func checkServerRestarted(w *window, c *Config) verdict {
	up, ok := w.snap.Uptime()
	if !ok || time.Duration(up)*time.Second >= c.RestartedRecent {
		return quiet()
	}
	r, seen := lastRestart(w)
	if !seen {
		return quiet()
	}
	ev := []string{fmt.Sprintf("Uptime %d s", up), r.evidence(w)}
	if v := w.snap.Server.Version; v != "" {
		ev = append(ev, "version "+v)
	}
	return raise(snapshot.Warning, fmt.Sprintf("server restarted %s ago", fmtDuration(time.Duration(up)*time.Second)), ev,
		"Find out why it restarted (error log: crash, OOM killer, an operator); expect cold caches and "+
			"slower queries until the buffer pool warms up.", nil)
}

// restartSeen is where in the window the server was seen starting again.
type restartSeen struct {
	prev, at int  // frame indexes: the last sample before, the first after
	dropped  bool // Uptime went down (else only the boot time moved)
}

// bootSlack is how far the boot time (sample time minus Uptime) may move
// between two samples without a restart: Uptime counts whole seconds and the
// sample time is the monitor's clock.
const bootSlack = 3 * time.Second

// lastRestart finds the latest restart in the window: a frame whose Uptime is
// below the last Uptime seen before it, or whose boot time is later than the
// last one's. The second catches a restart quicker than the monitor's
// reconnection on a young server, where the new Uptime already exceeds the
// old. Frames without status (server down) are skipped.
func lastRestart(w *window) (r restartSeen, seen bool) {
	prev := -1
	var lastUp int64
	var lastBoot time.Time
	for i, f := range w.frames {
		up, ok := f.Snapshot.Uptime()
		if !ok {
			continue
		}
		boot := f.Snapshot.Time.Add(-time.Duration(up) * time.Second)
		// Rebuilt clocks (pt-stalk's mysqladmin samples) may jump; only a
		// sample time that is a real clock reading dates a boot.
		bootMoved := !f.Snapshot.Approximate && prev >= 0 && !w.frames[prev].Snapshot.Approximate &&
			boot.Sub(lastBoot) > bootSlack
		if prev >= 0 && (up < lastUp || bootMoved) {
			r, seen = restartSeen{prev: prev, at: i, dropped: up < lastUp}, true
		}
		prev, lastUp, lastBoot = i, up, boot
	}
	return r, seen
}

func (r restartSeen) evidence(w *window) string {
	prev, at := w.frames[r.prev].Snapshot, w.frames[r.at].Snapshot
	before, _ := prev.Uptime()
	up, _ := at.Uptime()
	clock := func(s *snapshot.Snapshot) string { return s.Time.UTC().Format("15:04:05 UTC") }
	if r.dropped {
		return fmt.Sprintf("Uptime went from %d s down to %d s at %s", before, up, clock(at))
	}
	return fmt.Sprintf("Uptime %d s at %s after %d s at %s: it started again at %s, while the monitor was not connected",
		up, clock(at), before, clock(prev), at.Time.Add(-time.Duration(up)*time.Second).UTC().Format("15:04:05 UTC"))
}
