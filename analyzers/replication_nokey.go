package analyzers

import (
	"fmt"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A replica applying row events to a table with no primary key (nor a
// unique key) searches the whole table for every row an event changes: the
// SQL thread sits in find_row, seconds per event, and the lag grows while
// the source is idle. The applied_tables collector reads the keys of the
// table the applier searches; without them (a capture) the state alone is
// named as the likely cause.

// applierScan is what replication_lag adds about an applier searching rows:
// the evidence line and, when proven, the table with no key.
type applierScan struct {
	line   string
	noKey  string // the table, when the server says it has no primary or unique key
	advice string
}

func applierSearch(w *window, p snapshot.Process) (applierScan, bool) {
	if !snapshot.SearchesRows(p.State) {
		return applierScan{}, false
	}
	for _, name := range snapshot.AppliedTableNames(&p) {
		for _, t := range w.snap.AppliedTables {
			if t.Name != name {
				continue
			}
			if t.PrimaryKey || t.UniqueKey {
				return applierScan{line: fmt.Sprintf("  %s has a primary or unique key: its row events are "+
					"searched through it, so the time goes elsewhere (a lock, a big transaction)", name)}, true
			}
			return applierScan{noKey: name,
				line: fmt.Sprintf("  %s has no primary key (nor a unique key; %d other indexes): every row event "+
					"scans the table to find its row (%s)", name, t.Indexes, p.State),
				advice: fmt.Sprintf("Add a primary key to %s (on the source: the replica gets it through "+
					"replication, or on the replica first with sql_log_bin=0); every row event on it scans the "+
					"whole table until then. On MySQL, replica_rows_search_algorithms with HASH_SCAN shortens "+
					"the search meanwhile.", name)}, true
		}
	}
	return applierScan{line: "  the SQL thread searches rows (" + p.State + "): a table with no primary key or " +
		"usable index makes every row event scan it"}, true
}
