package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// IDGaleraClusterShrunk names the findings of galera_cluster_shrunk: a
// contract (the README's findings table), stable, never reused.
const IDGaleraClusterShrunk = "galera_cluster_shrunk"

// galeraClusterShrunkRule is galera_cluster_shrunk in the rules table
// (rule.go). A membership change is an event, proven by the new conf id.
var galeraClusterShrunkRule = rule{id: IDGaleraClusterShrunk, check: checkGaleraClusterShrunk, persist: persistFor(1*time.Second, 3*time.Second)}

// The Galera cluster has fewer members than it had within the window: a node
// left or was evicted. Critical when the members left are not a majority of
// the largest size seen (the next failure loses quorum, or it is lost).
func checkGaleraClusterShrunk(w *window, _ *Config) verdict {
	g, v := galeraOf(w)
	if v != nil {
		return *v
	}
	if g.ClusterSize <= 0 {
		return quiet()
	}
	biggest, at, conf := int64(0), time.Time{}, int64(0)
	for _, f := range w.frames {
		n, ok := f.Snapshot.StatusInt("wsrep_cluster_size")
		if ok && n >= biggest {
			biggest, at = n, f.Snapshot.Time
			conf, _ = f.Snapshot.StatusInt("wsrep_cluster_conf_id")
		}
	}
	if g.ClusterSize >= biggest {
		return quiet()
	}
	sev := snapshot.Warning
	if 2*g.ClusterSize <= biggest {
		sev = snapshot.Critical
	}
	ev := []string{
		fmt.Sprintf("wsrep_cluster_size %d, was %d at %s", g.ClusterSize, biggest, at.Format(time.TimeOnly)),
		fmt.Sprintf("wsrep_cluster_conf_id %d → %d (a membership change)", conf, g.ConfID),
		fmt.Sprintf("%s: %s, component %s", g.Label(), g.LocalStateComment, g.ClusterStatus),
	}
	title := fmt.Sprintf("Galera cluster shrank from %d to %d nodes", biggest, g.ClusterSize)
	return raise(sev, title, ev, galeraShrunkAdvice, nil)
}

const galeraShrunkAdvice = "Find which node left (its error log: shutdown, crash, eviction after network " +
	"timeouts) and bring it back; with fewer nodes one more failure may cost quorum."
