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

// connectionsNearMaxRule is connections_near_max in the rules table
// (rule.go). Counter rules whose sources speak in minutes (issue 28): each
// waits long enough for the burst its trap names to pass, far below the
// sources' minutes, since a DBA opens the monitor mid-incident. CONC-02:
// PMM-A 5 m, APA 2 m over 80 %. Trap: a pool opening its connections at a
// deploy or restart crosses 80 % for seconds.
var connectionsNearMaxRule = rule{id: IDConnectionsNearMax, check: checkConnectionsNearMax, persist: persistFor(30*time.Second, 10*time.Second)}

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
	sev := snapshot.Warning
	if refusedRate > 0 {
		sev = snapshot.Critical
	}
	ev := []string{fmt.Sprintf("Threads_connected %.0f of max_connections %.0f (%.0f %%)", conn, maxConn, pct)}
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
