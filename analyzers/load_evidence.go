package analyzers

import (
	"fmt"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// loadShareFrames is how far back a finding's share of the database load is
// measured: the last minute at 1 s frames, long enough to smooth a tick.
const loadShareFrames = 60

// loadShare is one evidence line saying what part of the database load is
// waiting in class over the last minute, and where most of it waits: "72 %
// of the load over the last 60 s is row_lock wait (8.6 of 12 average active
// sessions), most on shop.hot, fingerprint update hot set …". None when the
// frames carry no load (unit tests, captures without a processlist) or the
// class has none. Rules append it as their evidence, one line each.
func loadShare(w *window, class snapshot.WaitClass) []string {
	var tot infer.LoadTotals
	for _, f := range w.recent(loadShareFrames) {
		tot.Add(f.Load)
	}
	share := tot.Share(class)
	if share <= 0 {
		return nil
	}
	avg := tot.Average()
	var b strings.Builder
	fmt.Fprintf(&b, "%.0f %% of the load over the last %.0f s is %s wait (%.1f of %.1f average active sessions)",
		share*100, tot.Seconds, class, avg[class], avg.Total())
	var on, fp string
	for _, s := range tot.Top(1, class) {
		switch s.By {
		case snapshot.DimObject:
			on = s.Name
		case snapshot.DimStatement:
			fp = s.Name
		}
	}
	if on != "" {
		fmt.Fprintf(&b, ", most on %s", on)
	}
	if fp != "" && fp != snapshot.NoStatement {
		fmt.Fprintf(&b, ", fingerprint %s", clip(fp, maxSQLChars))
	}
	return []string{b.String()}
}
