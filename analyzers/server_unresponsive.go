package analyzers

import (
	"fmt"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The monitor's own view: the server did not answer this tick. Raised at
// once (persistence 1): a DBA must know the figures on screen are stale.
func checkServerUnresponsive(w *window, _ *Config) verdict {
	srv := w.snap.Server
	if !srv.Unreachable {
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
