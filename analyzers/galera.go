package analyzers

import "github.com/mytop-go/mytop-go/snapshot"

// galeraOf returns the node's Galera figures, or the verdict to give on a
// server that is no Galera node (or while status failed this tick).
func galeraOf(w *window) (snapshot.Galera, *verdict) {
	if r := w.unavailable(snapshot.CollectorStatus); r != "" {
		v := notApplicable(r)
		return snapshot.Galera{}, &v
	}
	g, ok := w.snap.Galera()
	if ok {
		return g, nil
	}
	// A server that is no Galera node is quiet, like a server that is no
	// replica for replication_lag: "not applicable" is for rules that cannot
	// see what they need (a privilege, a capture without it), and three such
	// lines on every plain server pushed those out of the findings panel.
	v := quiet()
	return g, &v
}

// galeraKeptStatus are the wsrep values rules read from older frames: the
// cluster's size and membership generation (galera_cluster_shrunk), and the
// provider's name, which tells a Galera node in a capture without variables.
var galeraKeptStatus = []string{"wsrep_cluster_size", "wsrep_cluster_conf_id", "wsrep_provider_name"}
