package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Connections close to max_connections (CONC-02, PMM-A/APA 80 %); once the
// server refuses connections (Connection_errors_max_connections grows) clients
// already fail, which is critical (ZBX "Refused connections").
const refused = "Connection_errors_max_connections"

// IDConnectionsNearMax names the findings of connections_near_max: a contract
// (the README's findings table), stable, never reused.
const IDConnectionsNearMax = "connections_near_max"

// ConnectionsConfig holds connections_near_max's thresholds, each with its source
// and the trap it avoids.
type ConnectionsConfig struct {
	// ConnectionsWarn: Threads_connected % of max_connections (CONC-02,
	// PMM-A/APA 80 %). Refused connections are always critical (ZBX).
	// Trap: a cumulative count since start-up; Connection_errors are judged per
	// interval.
	ConnectionsWarn float64

	// ConnectionsNearLimit: Threads_connected % of max_connections at which
	// the next burst is the outage ("Too many connections"): held
	// ConnectionsNearHold it warns, without the 30 s a pool's deploy-time
	// opening at 80 % is given (design: 56 of 60 in use waited 29 s).
	// Trap: a pool opening its connections touches its size for a second.
	ConnectionsNearLimit float64
	ConnectionsNearHold  time.Duration

	// ConnectionsHold: how long above ConnectionsWarn before it warns
	// (PMM-A 5 m, APA 2 m over 80 %; a DBA opens the monitor mid-incident).
	// Trap: a pool opening its connections at a deploy or restart crosses
	// 80 % for seconds.
	ConnectionsHold time.Duration
}

func (c *ConnectionsConfig) defaults() {
	*c = ConnectionsConfig{
		ConnectionsWarn:      80,
		ConnectionsNearLimit: 90,
		ConnectionsNearHold:  3 * time.Second,
		ConnectionsHold:      30 * time.Second,
	}
}

// connectionsNearMaxRule is connections_near_max in the rules table
// (rule.go). It holds the gauge itself (heldFor), since how long depends on
// how near the limit it is: above ConnectionsWarn for ConnectionsHold (a
// pool's deploy-time opening passes), at ConnectionsNearLimit for only
// ConnectionsNearHold (the next burst is the outage), refused at once. Until
// a hold is over it stands at info, saying which.
var connectionsNearMaxRule = rule{id: IDConnectionsNearMax, check: checkConnectionsNearMax, persist: persistFor(0, 10*time.Second)}

// connKeptStatus is what connections_near_max reads from older frames.
var connKeptStatus = []string{"Threads_connected"}

func checkConnectionsNearMax(w *window, c *Config) verdict {
	if r := w.statusNA("Threads_connected"); r != "" {
		return notApplicable(r)
	}
	maxConn, ok := w.snap.VarFloat("max_connections")
	if !ok || maxConn <= 0 {
		if len(w.snap.Variables) > 0 {
			return notApplicable("server does not report max_connections")
		}
		return quiet()
	}
	conn, ok := w.snap.StatusFloat("Threads_connected")
	if !ok {
		return quiet()
	}
	pct := 100 * conn / maxConn
	refusedRate, _ := w.rate(refused)
	if pct <= c.ConnectionsWarn && refusedRate <= 0 {
		return quiet()
	}
	above := func(line float64) func(*snapshot.Frame) bool {
		return func(f *snapshot.Frame) bool {
			n, ok := f.Snapshot.StatusFloat("Threads_connected")
			return ok && 100*n/maxConn > line
		}
	}
	var waits string
	switch {
	case refusedRate > 0:
	case pct >= c.ConnectionsNearLimit && w.heldFor(c.ConnectionsNearHold, above(c.ConnectionsNearLimit-1e-9)):
	case pct < c.ConnectionsNearLimit && w.heldFor(c.ConnectionsHold, above(c.ConnectionsWarn)):
	case pct >= c.ConnectionsNearLimit:
		waits = fmt.Sprintf("a warning once it holds %s at %.0f %% or more", fmtDuration(c.ConnectionsNearHold), c.ConnectionsNearLimit)
	default:
		waits = fmt.Sprintf("a warning once it holds %s above %.0f %%", fmtDuration(c.ConnectionsHold), c.ConnectionsWarn)
	}
	sev := snapshot.Warning
	if refusedRate > 0 {
		sev = snapshot.Critical
	}
	ev := []string{fmt.Sprintf("Threads_connected %.0f of max_connections %.0f (%.0f %%); %.0f left", conn, maxConn, pct,
		max(maxConn-conn, 0))}
	if waits != "" {
		sev = snapshot.Info
		ev = append(ev, "just reached: "+waits)
	}
	ev = appendNonEmpty(ev, w.counterLine(refused), w.counterLine("Aborted_connects"))
	if m, ok := w.snap.StatusInt("Max_used_connections"); ok {
		ev = append(ev, fmt.Sprintf("Max_used_connections %d", m))
	}
	ev = appendNonEmpty(ev, connectionsByUser(w.processes()))
	title := fmt.Sprintf("%.0f of %.0f connections in use (%.0f %%)", conn, maxConn, pct)
	if refusedRate > 0 {
		title += "; connections refused"
	}
	return raise(sev, title, ev,
		"Find who holds the connections (by user above; many in Sleep means a pool that is too large or "+
			"leaks); fix the pool sizes before raising max_connections.", nil)
}

// connectionsByUser is "by user: app 480 (412 Sleep), web 20 (3 Sleep)" for the top users.
func connectionsByUser(v *procView) string {
	total, sleeping := map[string]int{}, map[string]int{}
	for i := range v.all {
		p := &v.all[i]
		total[p.User]++
		if p.Command == "Sleep" {
			sleeping[p.User]++
		}
	}
	if len(total) == 0 {
		return ""
	}
	users := make([]string, 0, len(total))
	for u := range total {
		users = append(users, u)
	}
	sortByCount(users, total)
	out := "by user:"
	for i, u := range users {
		if i == 3 {
			out += " …"
			break
		}
		if i > 0 {
			out += ","
		}
		out += fmt.Sprintf(" %s %d (%d Sleep)", u, total[u], sleeping[u])
	}
	return out
}
