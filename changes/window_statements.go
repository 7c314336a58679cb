package changes

import "github.com/mytop-go/mytop-go/snapshot"

// statements are the window's statements by shape: the digests' first, so
// that the shapes of those cut short are known, then the sampled ones. A
// sampled row whose shape begins with a cut digest's is that digest's
// statement, counted already: snapshot.StatementTotals, matching shapes
// whole, could not tell, so it is left out here.
func (w *Window) statements() statementSet {
	rows := w.statementTotals.Rates()
	set := newStatementSet(len(rows))
	for _, r := range rows {
		if r.Source == snapshot.StatementsPerfSchema {
			set.add(snapshot.StatementShape(r.Fingerprint), r)
		}
	}
	for _, r := range rows {
		if r.Source == snapshot.StatementsPerfSchema {
			continue
		}
		shape := snapshot.StatementShape(r.Fingerprint)
		if _, cut := set.cutOf(shape); !cut {
			set.add(shape, r)
		}
	}
	return set
}
