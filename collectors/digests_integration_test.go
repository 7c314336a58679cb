package collectors

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// paced runs query (with one integer argument) per second on its own
// connection until ctx ends, and counts what it ran.
type paced struct {
	query string
	perS  int
	runs  atomic.Int64
}

func (p *paced) run(ctx context.Context, t *testing.T, db *sql.DB, wg *sync.WaitGroup) {
	defer wg.Done()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Error(err)
		return
	}
	defer conn.Close()
	tick := time.NewTicker(time.Second / time.Duration(p.perS))
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if _, err := conn.ExecContext(ctx, fmt.Sprintf(p.query, 1+i%500)); err != nil && ctx.Err() == nil {
			t.Errorf("%s: %v", p.query, err)
			return
		}
		p.runs.Add(1)
	}
}

func digestServer(t *testing.T, args ...string) *testdb.Server {
	t.Helper()
	srv := testdb.Start(t, append([]string{"--performance-schema=ON"}, args...)...)
	srv.Exec(t, "CREATE DATABASE d",
		"CREATE TABLE d.big (id INT PRIMARY KEY, c INT NOT NULL, pad CHAR(60) NOT NULL) ENGINE=InnoDB",
		"INSERT INTO d.big SELECT seq, seq % 7, REPEAT('x', 60) FROM d.seq_1_to_5000")
	return srv
}

// digestOf finds the digest whose text contains all of words.
func digestOf(rs []snapshot.StatementRate, words ...string) (snapshot.StatementRate, bool) {
	for _, r := range rs {
		ok := true
		for _, w := range words {
			ok = ok && strings.Contains(r.Fingerprint, w)
		}
		if ok {
			return r, true
		}
	}
	return snapshot.StatementRate{}, false
}

func TestDigestsMeasureThreeStatementsAtTheirRates(t *testing.T) {
	// Serial: judges rates against paced clients, which a loaded machine slows.
	srv := digestServer(t)
	db := openDB(t, srv.DSN(""))
	point := &paced{query: "SELECT pad FROM d.big WHERE id = %d", perS: 40}
	update := &paced{query: "UPDATE d.big SET pad = REPEAT('y', 60) WHERE id = %d", perS: 15}
	scan := &paced{query: "SELECT COUNT(*) FROM d.big WHERE c = %d", perS: 4}
	l := newLive(t, rootOptions(srv), time.Second, func(o *LiveOptions) { o.StatementsEvery = 2 * time.Second })
	next(t, l) // the baseline read
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, p := range []*paced{point, update, scan} {
		wg.Add(1)
		go p.run(ctx, t, db, &wg)
	}
	time.Sleep(2 * time.Second) // let the pacers reach their rate
	var totals snapshot.DigestTotals
	base := [3]int64{point.runs.Load(), update.runs.Load(), scan.runs.Load()}
	start := time.Now()
	var last *snapshot.Snapshot
	for time.Since(start) < 9*time.Second {
		last = next(t, l)
		totals.Add(last.Statements)
	}
	elapsed := time.Since(start).Seconds()
	cancel()
	wg.Wait()
	if st := last.Collectors[snapshot.CollectorStatements]; st.Unavailable != "" || st.Error != "" {
		t.Fatalf("statements collector: %+v", st)
	}
	rates := totals.Rates()
	for i, c := range []struct {
		p     *paced
		words []string
	}{
		{point, []string{"SELECT `pad` FROM `d` . `big` WHERE"}},
		{update, []string{"UPDATE `d` . `big` SET `pad`"}},
		{scan, []string{"SELECT COUNT ( * ) FROM `d` . `big` WHERE `c` = ?"}},
	} {
		real := float64(c.p.runs.Load()-base[i]) / elapsed
		r, ok := digestOf(rates, c.words...)
		if !ok {
			t.Errorf("no digest for %q among %d: %+v", c.p.query, len(rates), rates)
			continue
		}
		if r.CallsPerS < real*0.8 || r.CallsPerS > real*1.2 {
			t.Errorf("%s: %.1f calls/s from digests, really %.1f/s", c.p.query, r.CallsPerS, real)
		}
		if r.Source != snapshot.StatementsPerfSchema || r.Digest == "" {
			t.Errorf("%s: source %q digest %q", c.p.query, r.Source, r.Digest)
		}
		full := c.p == scan
		if r.NoIndexUsed != full {
			t.Errorf("%s: no_index_used %v, want %v", c.p.query, r.NoIndexUsed, full)
		}
		if full && r.RowsExaminedPerS < 0.8*5000*real {
			t.Errorf("full scan examined %.0f rows/s, want ~%.0f", r.RowsExaminedPerS, 5000*real)
		}
		t.Logf("%-55s real %5.1f/s digests %5.1f/s, %.0f rows examined/s, %.2f ms avg", c.p.query, real,
			r.CallsPerS, r.RowsExaminedPerS, r.AvgLatencyS*1000)
	}
}

func TestDigestsSurviveTruncate(t *testing.T) {
	// Serial: judges rates against a paced client, which a loaded machine slows.
	srv := digestServer(t)
	db := openDB(t, srv.DSN(""))
	p := &paced{query: "SELECT pad FROM d.big WHERE id = %d", perS: 20}
	l := newLive(t, rootOptions(srv), time.Second, func(o *LiveOptions) { o.StatementsEvery = time.Second })
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go p.run(ctx, t, db, &wg)
	defer func() { cancel(); wg.Wait() }()
	for range 3 {
		next(t, l)
	}
	srv.Exec(t, "TRUNCATE TABLE performance_schema.events_statements_summary_by_digest")
	reset, after := false, 0.0
	for range 4 {
		s := next(t, l)
		reset = reset || s.Statements.Reset
		if r, ok := digestOf(s.Statements.SampleRates(), "SELECT `pad` FROM"); ok {
			after = r.CallsPerS
			if r.CallsPerS > 30 {
				t.Errorf("after TRUNCATE: %.0f calls/s, more than the 20/s run", r.CallsPerS)
			}
		}
	}
	if after < 10 {
		t.Errorf("after TRUNCATE the statement reads %.1f calls/s, want ~20", after)
	}
	t.Logf("reset seen: %v, %.1f calls/s after", reset, after)
}

func TestDigestsSayWhenTheTableIsFull(t *testing.T) {
	t.Parallel()
	srv := digestServer(t, "--performance-schema-digests-size=20")
	l := newLive(t, rootOptions(srv), time.Second, func(o *LiveOptions) { o.StatementsEvery = time.Second })
	next(t, l)
	db := openDB(t, srv.DSN(""))
	for i := range 40 {
		if _, err := db.Exec(fmt.Sprintf("SELECT %d AS c%d FROM d.big LIMIT 1", i, i)); err != nil {
			t.Fatal(err)
		}
	}
	s := next(t, l)
	st := s.Statements
	if st == nil || st.Lost == 0 || st.LostTotal < st.Lost || st.DigestsSize != 20 {
		t.Fatalf("statements %+v, want lost digests counted and the table size", st)
	}
	if _, ok := digestOf(st.SampleRates(), "digest table full"); !ok {
		t.Errorf("no row for the statements without a digest of their own: %+v", st.Digests)
	}
}

func TestDigestsUnavailableWithoutPerformanceSchema(t *testing.T) {
	// Serial: on the shared server, whose processlist and sessions other tests' monitors would share.
	srv := sharedServer(t)
	l := newLive(t, rootOptions(srv), testInterval, nil)
	s := next(t, l)
	if st := s.Collectors[snapshot.CollectorStatements]; st.Unavailable != perfSchemaOffLine || s.Statements != nil {
		t.Errorf("state %+v, statements %+v", st, s.Statements)
	}
}
