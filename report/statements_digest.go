package report

import (
	"slices"

	"github.com/mytop-go/mytop-go/snapshot"
)

// statementsTopN is how many statements the report's `statements` keeps.
const statementsTopN = 20

// topStatements is the report's `statements`: from the server's digests,
// with those sampled from the processlist of the frames no digest sample
// covers (all frames without digests); each row says which in its source.
type topStatements struct{ totals snapshot.StatementTotals }

func (t *topStatements) add(f *snapshot.Frame) { t.totals.Add(f) }

// top is the busiest statementsTopN.
func (t *topStatements) top() []snapshot.StatementRate {
	rows := t.totals.Rates()
	if len(rows) > statementsTopN {
		rows = rows[:statementsTopN]
	}
	if rows == nil {
		rows = []snapshot.StatementRate{}
	}
	return rows
}

// textTopStatements prints the `statements` list for a terminal. Digests
// may come with statements sampled from the frames no digest sample
// covers: those are marked, as the header says.
func textTopStatements(p *printer, list []snapshot.StatementRate) {
	if len(list) == 0 {
		return
	}
	from, sampled := list[0].Source, ""
	if slices.ContainsFunc(list, func(s snapshot.StatementRate) bool { return s.Source != from }) {
		from, sampled = snapshot.StatementsPerfSchema+", [sampled] from "+snapshot.StatementsProcesslist, " [sampled]"
	}
	p.f("\nTop statements per second (from %s)\n", from)
	p.f("  %9s %9s %9s %12s  %s\n", "calls/s", "lat s/s", "avg ms", "examined/s", "fingerprint")
	for _, s := range list {
		mark := ""
		if s.Source == snapshot.StatementsProcesslist {
			mark = sampled
		}
		if s.NoIndexUsed {
			mark += " [no index]"
		}
		p.f("  %9.1f %9.3f %9.2f %12.0f  %s%s\n", s.CallsPerS, s.LatencySPerS, s.AvgLatencyS*1000, s.RowsExaminedPerS,
			truncate(s.Fingerprint, 100), mark)
	}
}
