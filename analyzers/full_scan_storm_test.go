package analyzers

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// statusOnly is a capture of the status counters alone (mysqladmin ext):
// no processlist, no digests.
func statusOnly(_ int, s *snapshot.Snapshot) {
	s.Processlist = nil
	if s.Collectors == nil {
		s.Collectors = map[snapshot.CollectorName]snapshot.CollectorState{}
	}
	s.Collectors[snapshot.CollectorProcesslist] = snapshot.CollectorState{Unavailable: "not in this capture"}
}

// scanLoad is a second's scans: scans/s begun, rows/s they read, rows/s sent.
func scanLoad(scans, rows, sent float64) edit {
	return counters(map[string]float64{"Select_scan": scans, "Handler_read_rnd_next": rows, "Rows_sent": sent,
		"Com_select": scans + 2})
}

// withoutRowsSent is MySQL, whose status has no Rows_sent.
func withoutRowsSent(_ int, s *snapshot.Snapshot) { delete(s.Status, "Rows_sent") }

func TestFullScanStorm(t *testing.T) {
	// The incident: users looked up by an email whose index was dropped, 36
	// scans of 200,000 rows a second, each sending one row.
	storm := scanLoad(36, 7.2e6, 40)
	runTimelines(t, IDFullScanStorm, DefaultConfig(), []timelineCase{
		{"a scan storm in a status-only capture", series(9, statusOnly, storm), "...iiWWWW"},
		{"MySQL: no Rows_sent, a few bytes sent", series(9, statusOnly, storm, withoutRowsSent,
			counter("Bytes_sent", 0, 12000)), "...iiWWWW"},
		{"statements known: full_scan_select's", series(9, storm), "........."},
		{"digests known", series(9, statusOnly, storm, func(_ int, s *snapshot.Snapshot) {
			s.Statements = &snapshot.Statements{}
		}), "........."},
		// Healthy twins.
		{"steady indexed load", series(9, statusOnly, scanLoad(2, 1100, 1100),
			counters(map[string]float64{"Handler_read_key": 15000, "Com_select": 15000})), "........."},
		{"a dump sends every row it reads", series(9, statusOnly, scanLoad(8, 1.6e6, 1.6e6)), "........."},
		{"a dump on MySQL: its bytes", series(9, statusOnly, scanLoad(8, 1.6e6, 0), withoutRowsSent,
			counter("Bytes_sent", 0, 1.6e6*120)), "........."},
		{"frequent scans of a 50-row table", series(9, statusOnly, scanLoad(3000, 150000, 3000)), "........."},
		{"one big scan (a report), not again and again", series(9, statusOnly,
			counters(map[string]float64{"Select_scan": 0, "Handler_read_rnd_next": 2e6, "Rows_sent": 1}),
			during(3, 9, status("Select_scan", "1000001"))), "........."},
		{"nothing to say whether rows are sent", series(9, statusOnly, storm, withoutRowsSent), "........."},
		{"no scan counters", series(3, statusOnly), "NNN"},
	})
	f := lastFinding(t, DefaultConfig(), series(8, statusOnly, storm), IDFullScanStorm)
	mustContain(t, f, "36 scans/s of ~200,000 rows each (7,200,000 rows/s)", "statements are not in this capture",
		"Select_scan 36/s", "Handler_read_rnd_next 7,200,000/s", "Rows_sent 40/s: one row sent for every 180,000 read",
		"a dump or an export sends every row it reads", "95 % of the SELECTs scan a table",
		"which statements and which table", "SHOW FULL PROCESSLIST", "about 200,000 rows", "rows read per scan begun over the last 5 s",
		"add the index on the columns of its WHERE clause")
}
