package collectors

import (
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// mysql8Row is a row of digestQuery as MySQL 8.0 answers it (columns from the
// reference manual's events_statements_summary_by_digest: QUANTILE_95/99 and
// QUERY_SAMPLE_TEXT exist there, not on MariaDB). Fields: cursor, first
// seen, schema, digest, the 13 counters, DIGEST_TEXT, MAX_TIMER_WAIT,
// QUANTILE_95, QUANTILE_99, QUERY_SAMPLE_TEXT.
func mysql8Row(cursor, firstSeen, digest string, calls, timerPS, examined, noIndex string, sample string) []sql.RawBytes {
	fields := []string{cursor, firstSeen, "shop", digest,
		calls, "0", "0", timerPS, "1000000", examined, calls, "0", noIndex, "0", "0", "0", "0",
		"SELECT * FROM `orders` WHERE `status` = ?", "5000000000", "2000000000", "4000000000", sample}
	raw := make([]sql.RawBytes, len(fields))
	for i, f := range fields {
		raw[i] = sql.RawBytes(f)
	}
	return raw
}

func TestDigestRowsTurnCountersIntoIntervals(t *testing.T) {
	cols := &digestColumns{quantiles: true, sample: true}
	st := &digestState{cursor: 1000, prev: map[string]digestCounters{
		"shop\x00aaa": {cCalls: 100, cTimer: 1e12, cExamined: 1000, cSent: 100, cNoIndex: 10},
		"shop\x00ccc": {cCalls: 500, cTimer: 5e12},
	}}
	out := &snapshot.Statements{}
	r := newDigestRows(false, cols, true)
	for _, row := range [][]sql.RawBytes{
		// ran 50 more times, 0.5 s more, all full scans
		mysql8Row("1005", "900", "aaa", "150", "1500000000000", "51000", "60", "SELECT * FROM orders WHERE status = 'new'"),
		// new since the last read: all of it counts
		mysql8Row("1005", "1002", "bbb", "7", "7000000000", "7", "0", ""),
		// counters went back (TRUNCATE): counted from its new start
		mysql8Row("1005", "1003", "ccc", "3", "3000000000", "3", "0", ""),
		// read again, unchanged: dropped
		mysql8Row("1005", "900", "ddd", "9", "9", "9", "0", ""),
	} {
		if c := r.add(row, st, out); c != 1005 {
			t.Fatalf("cursor %d", c)
		}
	}
	st.prev["shop\x00ddd"] = digestCounters{cCalls: 9, cTimer: 9}
	r.add(mysql8Row("1005", "900", "ddd", "9", "9", "9", "0", ""), st, out)
	if !out.Reset {
		t.Error("a digest whose counters went back did not mark the sample reset")
	}
	got := map[string]snapshot.Digest{}
	for _, d := range r.changed {
		got[d.Digest] = d
	}
	if len(got) != 3 {
		t.Fatalf("changed %+v, want aaa, bbb, ccc", r.changed)
	}
	a := got["aaa"]
	if a.Calls != 50 || a.LatencyS != 0.5 || a.RowsExamined != 50000 || a.NoIndexUsed != 50 || a.P99S != 0.004 ||
		a.MaxS != 0.005 || !strings.Contains(a.Sample, "'new'") || a.Text == "" {
		t.Errorf("aaa %+v", a)
	}
	if got["bbb"].Calls != 7 || got["ccc"].Calls != 3 {
		t.Errorf("bbb %+v ccc %+v", got["bbb"], got["ccc"])
	}
}

func TestDigestRowsOfUnknownHistoryWaitForTheNextRead(t *testing.T) {
	st := &digestState{cursor: 1000, prev: map[string]digestCounters{}}
	r := newDigestRows(false, &digestColumns{quantiles: true, sample: true}, true)
	r.add(mysql8Row("1005", "10", "old", "9000", "9", "9", "0", ""), st, &snapshot.Statements{})
	if len(r.changed) != 0 || r.seen["shop\x00old"][cCalls] != 9000 {
		t.Errorf("a digest first seen long ago and never read counted its whole life: %+v", r.changed)
	}
}

func TestDigestQueryReadsOnlyChangedRowsAfterTheFirst(t *testing.T) {
	cols := &digestColumns{quantiles: true, sample: true}
	if q := digestQuery(true, cols, 0, false); strings.Contains(q, "WHERE") || strings.Contains(q, "DIGEST_TEXT") {
		t.Errorf("first read: %s", q)
	}
	q := digestQuery(false, cols, 1234, true)
	for _, want := range []string{"WHERE UNIX_TIMESTAMP(LAST_SEEN) >= 1234", "QUANTILE_99", "QUERY_SAMPLE_TEXT", "DIGEST_TEXT"} {
		if !strings.Contains(q, want) {
			t.Errorf("query lacks %q: %s", want, q)
		}
	}
	if q := digestQuery(false, &digestColumns{}, 1, false); strings.Contains(q, "QUANTILE") || strings.Contains(q, "SAMPLE") {
		t.Errorf("MariaDB query asks for MySQL 8 columns: %s", q)
	}
}

func TestDigestLostCountsTheIntervalsIncrease(t *testing.T) {
	st := &digestState{}
	s := &snapshot.Snapshot{Status: map[string]string{"Performance_schema_digest_lost": "40"},
		Variables: map[string]string{"performance_schema_digests_size": "200"}, Time: time.Now()}
	out := &snapshot.Statements{}
	st.addLost(s, out)
	if out.Lost != 0 || out.LostTotal != 40 || out.DigestsSize != 200 {
		t.Errorf("first: %+v", out)
	}
	s.Status["Performance_schema_digest_lost"] = "55"
	st.addLost(s, out)
	if out.Lost != 15 {
		t.Errorf("second: %+v", out)
	}
}

func TestSampleCacheMatchesRunningStatements(t *testing.T) {
	var c sampleCache
	ds := []snapshot.Digest{{Digest: "x", Text: "SELECT * FROM `d` . `t` WHERE `a` IN (...) LIMIT ? OFFSET ?"}}
	procs := []snapshot.Process{{Command: "Query", Info: "select * from d.t where a in (1, 2,3) limit 20 offset 60000"}}
	c.fill(ds, procs)
	if ds[0].Sample != procs[0].Info {
		t.Fatalf("no sample from the processlist: %+v", ds[0])
	}
	again := []snapshot.Digest{{Digest: "x", Text: ds[0].Text}}
	c.fill(again, nil)
	if again[0].Sample != procs[0].Info {
		t.Error("the sample was not kept for later intervals")
	}
}

func TestDigestPeriodStretchesWithTheReadsCost(t *testing.T) {
	c := &digests{}
	if p := c.period(5 * time.Second); p != 5*time.Second {
		t.Errorf("no read yet: %v", p)
	}
	st := &snapshot.Statements{Interval: 5}
	c.noteCost(st, 20*time.Millisecond)
	if p := c.period(5 * time.Second); p != 5*time.Second || st.StretchedTo != 0 {
		t.Errorf("a cheap read: period %v, stretched %v", p, st.StretchedTo)
	}
	c.noteCost(st, 150*time.Millisecond)
	if p := c.period(5 * time.Second); p != 15*time.Second || st.StretchedTo != 15 || st.ReadSeconds != 0.15 {
		t.Errorf("a 150 ms read: period %v, sample %+v", p, st)
	}
	c.noteCost(&snapshot.Statements{}, time.Second) // the first, full read
	if p := c.period(5 * time.Second); p != 15*time.Second {
		t.Errorf("the full first read changed the period: %v", p)
	}
}
