package report

import (
	"github.com/mytop-go/mytop-go/snapshot"
)

// statementsTopN is how many statements the report's `statements` keeps.
const statementsTopN = 20

// topStatements is the report's `statements`: from the server's digests
// when the source has them, else sampled from the processlist; each row says
// which in its source.
type topStatements struct {
	digests snapshot.DigestTotals
	sampled snapshot.SampledStatements
}

func (t *topStatements) add(f *snapshot.Frame) {
	s := f.Snapshot
	if s.Statements != nil {
		t.digests.Add(s.Statements)
		return
	}
	interval := 1.0
	if f.Rates != nil {
		interval = f.Rates.Interval
	}
	t.sampled.Add(s, interval)
}

func (t *topStatements) top() []snapshot.StatementRate {
	rows := t.digests.Rates()
	if len(rows) == 0 {
		rows = t.sampled.Rates()
	}
	if len(rows) > statementsTopN {
		rows = rows[:statementsTopN]
	}
	if rows == nil {
		rows = []snapshot.StatementRate{}
	}
	return rows
}

// textTopStatements prints the `statements` list for a terminal.
func textTopStatements(p *printer, list []snapshot.StatementRate) {
	if len(list) == 0 {
		return
	}
	p.f("\nTop statements per second (from %s)\n", list[0].Source)
	p.f("  %9s %9s %9s %12s  %s\n", "calls/s", "lat s/s", "avg ms", "examined/s", "fingerprint")
	for _, s := range list {
		mark := ""
		if s.NoIndexUsed {
			mark = " [no index]"
		}
		p.f("  %9.1f %9.3f %9.2f %12.0f  %s%s\n", s.CallsPerS, s.LatencySPerS, s.AvgLatencyS*1000, s.RowsExaminedPerS,
			truncate(s.Fingerprint, 100), mark)
	}
}
