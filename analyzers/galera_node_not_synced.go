package analyzers

import (
	"fmt"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// IDGaleraNodeNotSynced names the findings of galera_node_not_synced: a
// contract (the README's findings table), stable, never reused.
const IDGaleraNodeNotSynced = "galera_node_not_synced"

// galeraNodeNotSyncedRule is galera_node_not_synced in the rules table
// (rule.go); it keeps Config.DefaultPersistence.
var galeraNodeNotSyncedRule = rule{id: IDGaleraNodeNotSynced, check: checkGaleraNodeNotSynced}

// A Galera node that does not serve as a full member (MX galera.yaml:
// MySQLGaleraNotReady wsrep_ready != 1, MySQLGaleraOutOfSync wsrep_local_state
// != 4 and not desynced on purpose): critical when it is outside a Primary
// component or refuses queries, a warning while it joins, donates or is
// desynced (a backup taking FLUSH TABLES WITH READ LOCK does that), and
// info when wsrep_desync was set on purpose.
func checkGaleraNodeNotSynced(w *window, _ *Config) verdict {
	g, v := galeraOf(w)
	if v != nil {
		return *v
	}
	if g.Synced() {
		return quiet()
	}
	ev := []string{fmt.Sprintf("wsrep_local_state %d (%s), wsrep_cluster_status %s, wsrep_ready %s, wsrep_connected %s",
		g.LocalState, g.LocalStateComment, g.ClusterStatus, onOffText(g.Ready), onOffText(g.Connected))}
	if g.RecvQueue > 0 {
		ev = append(ev, fmt.Sprintf("receive queue %d write sets", g.RecvQueue))
	}
	sev := snapshot.Warning
	what := strings.TrimSpace(g.LocalStateComment)
	switch {
	case !strings.EqualFold(g.ClusterStatus, "Primary"):
		sev, what = snapshot.Critical, "outside the Primary component ("+g.ClusterStatus+")"
	case !g.Ready:
		sev, what = snapshot.Critical, "not ready for queries"
	case g.Desync:
		sev = snapshot.Info
		ev = append(ev, "wsrep_desync is ON: desynced on purpose")
	}
	return raise(sev, fmt.Sprintf("Galera %s is not synced: %s", g.Label(), what), ev, galeraNotSyncedAdvice, nil)
}

const galeraNotSyncedAdvice = "A joining or donor node catches up by itself; a node outside the Primary " +
	"component has lost quorum (network partition, too many nodes down) and refuses writes until it is back. " +
	"A node desynced by a backup (FLUSH TABLES WITH READ LOCK) resyncs when the lock is released."

func onOffText(b bool) string {
	if b {
		return "ON"
	}
	return "OFF"
}
