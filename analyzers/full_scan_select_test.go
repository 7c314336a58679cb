package analyzers

import (
	"fmt"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

const emailLookupSQL = "SELECT id, name FROM app.users WHERE email = 'u4711@example.com'"

// emailLookups is four clients each looking a user up by email every
// 100 ms: every sample catches them young, in new runs.
func emailLookups(clients int) edit {
	return func(i int, s *snapshot.Snapshot) {
		for c := range clients {
			ms := float64((i*37+c*23)%100) / 1000
			s.Processlist = append(s.Processlist, query(int64(200+c), ms, "Sending data",
				fmt.Sprintf("SELECT id, name FROM app.users WHERE email = 'u%d@example.com'", i*10+c)))
		}
	}
}

// usersPlan is the stored plan of the lookup.
func usersPlan(typ, key string, rows int64) edit {
	return func(_ int, s *snapshot.Snapshot) {
		if s.Explains == nil {
			s.Explains = map[string]*snapshot.Explain{}
		}
		fp := snapshot.Fingerprint(emailLookupSQL)
		s.Explains[fp] = &snapshot.Explain{Fingerprint: fp, Method: "SHOW EXPLAIN FOR",
			Rows:      []snapshot.ExplainRow{{ID: "1", SelectType: "SIMPLE", Table: "users", Type: typ, Key: key, Rows: rows}},
			TableRows: map[string]int64{"app.users": rows}}
	}
}

const emailDigest = "SELECT `id` , `name` FROM `app` . `users` WHERE `email` = ?"

func TestFullScanSelect(t *testing.T) {
	scans := counters(map[string]float64{"Select_scan": 36, "Handler_read_rnd_next": 7.2e6})
	runTimelines(t, IDFullScanSelect, DefaultConfig(), []timelineCase{
		{"lookups scanning 200,000 rows", series(6, usersPlan("ALL", "", 200000), emailLookups(4), scans), "...WWW"},
		{"with the index", series(6, usersPlan("ref", "email", 1), emailLookups(4)), "......"},
		// The healthy twin: a frequent SELECT on a 50-row table; a scan is
		// the right plan.
		{"a table of 50 rows", series(6, usersPlan("ALL", "", 50), emailLookups(4)), "......"},
		{"no plan yet", series(6, emailLookups(4)), "......"},
		{"seen once", series(6, usersPlan("ALL", "", 200000), during(2, 3, emailLookups(1))), "......"},
		// A dump reads each table once, whatever its size (a recorded
		// mariadb-dump's SELECTs were named before routine work was left out).
		{"a dump reading tables", series(8, dumpPlan, dumping), "........"},
		// 180 calls in 5 s, 200,000 rows examined each, no index used.
		{"digests", series(3, digests(digestOf(emailDigest, 180, 180*200000, 180, 0, 180))), ".WW"},
		{"digests of a small table", series(3, digests(digestOf(emailDigest, 180, 180*50, 180, 0, 180))), "..."},
		{"digests of a whole-table sum", series(3, digests(digestOf("SELECT SUM ( LENGTH ( `pad` ) ) FROM `app` . `users`", 180, 180*200000, 180, 0, 180))), "..."},
		{"digests of indexed lookups", series(3, digests(digestOf(emailDigest, 70000, 70000, 70000, 0, 0))), "..."},
	})
	f := lastFinding(t, DefaultConfig(), series(8, usersPlan("ALL", "", 200000), emailLookups(4), scans), IDFullScanSelect)
	mustContain(t, f, "SELECT on app.users reads the whole table again and again: at least", "~200,000 rows each",
		"type ALL, key NULL, ~200,000 rows", "seen running in 8 of the last 8 samples",
		"Select_scan 36/s, Handler_read_rnd_next 7,200,000/s (~200,000 rows per scan)", "an index on app.users(email)")
	if len(f.Tables) != 1 || f.Tables[0] != "app.users" || len(f.Threads) != 4 {
		t.Errorf("tables %v threads %v", f.Tables, f.Threads)
	}
	f = lastFinding(t, DefaultConfig(), series(3, digests(digestOf(emailDigest, 180, 180*200000, 180, 0, 180))), IDFullScanSelect)
	mustContain(t, f, "SELECT on app.users reads the whole table again and again: 36 calls/s, ~200,000 rows each (7,200,000 rows/s)",
		"no index used; 200,000 rows examined per call", "an index on app.users(email)")
}

const dumpSQL = "SELECT /*!40001 SQL_NO_CACHE */ `id`, `email`, `name` FROM `users`"

func dumpPlan(_ int, s *snapshot.Snapshot) {
	fp := snapshot.Fingerprint(dumpSQL)
	s.Explains = map[string]*snapshot.Explain{fp: {Fingerprint: fp, Method: "SHOW EXPLAIN FOR",
		Rows: []snapshot.ExplainRow{{ID: "1", SelectType: "SIMPLE", Table: "users", Type: "ALL", Rows: 200000}}}}
}

// dumping is a dump session whose SELECT of one table is seen starting
// again every other sample (tables of one size, one after another).
func dumping(i int, s *snapshot.Snapshot) {
	s.Processlist = append(s.Processlist, query(300, float64(i%2), "Sending data", dumpSQL))
}
