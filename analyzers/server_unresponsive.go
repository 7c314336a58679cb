package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// IDServerUnresponsive names the findings of server_unresponsive: a contract
// (the README's findings table), stable, never reused.
const IDServerUnresponsive = "server_unresponsive"

// UnresponsiveConfig holds server_unresponsive's thresholds, each with its source
// and the trap it avoids.
type UnresponsiveConfig struct {
	// UnresponsiveAfter: server_unresponsive is raised once the server has been
	// silent this long, or for two samples in a row. Trap: a 105 ms restart the
	// monitor reconnects across, which made one frame say "has not answered for
	// 0.0 s".
	UnresponsiveAfter time.Duration
}

func (c *UnresponsiveConfig) defaults() {
	*c = UnresponsiveConfig{
		UnresponsiveAfter: time.Second,
	}
}

// serverUnresponsiveRule is server_unresponsive in the rules table (rule.go).
// The monitor's own view: say it at once.
var serverUnresponsiveRule = rule{id: IDServerUnresponsive, check: checkServerUnresponsive, persist: persistFor(1*time.Second, 1*time.Second)}

// The monitor's own view: the server did not answer. Raised as soon as the
// silence is real (persistence 1): a DBA must know the figures on screen are
// stale. One missed tick shorter than UnresponsiveAfter is a blip (a quick
// restart the monitor reconnects across), not an outage.
func checkServerUnresponsive(w *window, c *Config) verdict {
	srv := w.snap.Server
	if !srv.Unreachable || !silenceIsReal(w, c) {
		return quiet()
	}
	ev := []string{}
	if srv.Error != "" {
		ev = append(ev, "last error: "+srv.Error)
	}
	title := "server does not answer"
	if !srv.DownSince.IsZero() {
		down := w.snap.Time.Sub(srv.DownSince)
		title = fmt.Sprintf("server has not answered for %s", fmtDuration(down))
		ev = append(ev, "no answer since "+srv.DownSince.UTC().Format("15:04:05 UTC"))
	}
	ev = appendNonEmpty(ev, w.hostFigures())
	return raise(snapshot.Critical, title, ev,
		"Check that mysqld is running and accepting connections (error log, SHOW PROCESSLIST from another "+
			"session, max_connections, a full disk); the dashboard keeps sampling.", nil)
}

// silenceIsReal: the server has been silent for UnresponsiveAfter, or for two
// samples in a row (a hung server whose ticks time out).
func silenceIsReal(w *window, c *Config) bool {
	srv := w.snap.Server
	if !srv.DownSince.IsZero() && w.snap.Time.Sub(srv.DownSince) >= c.UnresponsiveAfter {
		return true
	}
	p := w.prev()
	return p != nil && p.Snapshot.Server.Unreachable
}
