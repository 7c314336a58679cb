package collectors

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// fullScanTable makes database db with table b: 3,000 rows, no index on c.
func fullScanTable(t *testing.T, db string) *testdb.Server {
	t.Helper()
	srv := sharedServer(t)
	srv.Exec(t, "CREATE DATABASE "+db,
		"CREATE TABLE "+db+".b (id INT PRIMARY KEY AUTO_INCREMENT, c INT, v INT) ENGINE=InnoDB",
		"INSERT INTO "+db+".b (c, v) SELECT seq % 100, 0 FROM "+db+".seq_1_to_3000",
		"ANALYZE TABLE "+db+".b")
	return srv
}

// awaitPlan samples until a plan of q without error appears; a timed-out
// attempt on a loaded machine is retried by the collector itself.
func awaitPlan(t *testing.T, l *Live, q string) (*snapshot.Explain, *snapshot.Snapshot) {
	t.Helper()
	fp := snapshot.Fingerprint(q)
	var last *snapshot.Explain
	for i := 0; i < 30; i++ {
		s := next(t, l)
		if ex := s.Explains[fp]; ex != nil && ex.Error == "" {
			return ex, s
		} else if ex != nil {
			last = ex
		}
	}
	t.Fatalf("no plan for %q; last attempt %+v", q, last)
	return nil, nil
}

func isFullScan(r snapshot.ExplainRow) bool { return r.Type == "ALL" || r.Type == "index" }

func TestLiveExplainsRunningFullScanUpdate(t *testing.T) {
	// Serial: on the shared server, whose processlist and sessions other tests' monitors would share.
	srv := fullScanTable(t, "fts_running")
	// A whole second per tick, so the running plan arrives in time even on
	// a loaded machine.
	l := newLive(t, rootOptions(srv), time.Second, func(o *LiveOptions) {
		o.Explain = ExplainOptions{After: 300 * time.Millisecond}
	})
	// SLEEP per examined row keeps the scan running for seconds.
	const q = "UPDATE b SET v = v + 1 WHERE SLEEP(0.001) = 0 AND c = 7"
	go openDB(t, srv.DSN("fts_running")).Exec(q)

	ex, s := awaitPlan(t, l, q)
	if ex.Error != "" || len(ex.Rows) != 1 || ex.Method != explainShowFor {
		t.Fatalf("plan %+v", ex)
	}
	if r := ex.Rows[0]; !isFullScan(r) || r.Table != "b" {
		t.Errorf("want a full scan of b, got %+v", r)
	}
	if ex.TableRows["b"] < 1000 {
		t.Errorf("table rows estimate %v", ex.TableRows)
	}
	p, _ := threadRunning(s, q)
	if ex.ThreadID != p.ID {
		t.Errorf("thread %d, want %d", ex.ThreadID, p.ID)
	}
	// Past a second, MariaDB's examined-rows count is read for it.
	if p.TimeMS >= 1000 && p.ExaminedRows <= 0 {
		t.Errorf("no examined rows for a long UPDATE: %+v", p)
	}
	if again := next(t, l); again.Explains[snapshot.Fingerprint(q)] != ex {
		t.Error("the plan must come from the cache on the next tick")
	}
}

func TestLiveExplainOfLockWaitFallsBackToText(t *testing.T) {
	// Serial: on the shared server, whose processlist and sessions other tests' monitors would share.
	srv := fullScanTable(t, "fts_locked")
	holder, err := openDB(t, srv.DSN("fts_locked")).Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Rollback()
	if _, err := holder.Exec("SELECT * FROM b WHERE id = 2000 FOR UPDATE"); err != nil {
		t.Fatal(err)
	}
	l := newLive(t, rootOptions(srv), testInterval, func(o *LiveOptions) {
		o.Explain = ExplainOptions{After: 300 * time.Millisecond}
	})
	// The scan stops at the locked row; a waiting thread cannot show its plan.
	const q = "UPDATE b SET v = v + 1 WHERE c = 7"
	go openDB(t, srv.DSN("fts_locked")).Exec(q)

	ex, _ := awaitPlan(t, l, q)
	if ex.Error != "" || ex.Method != explainStatement || len(ex.Rows) != 1 || !isFullScan(ex.Rows[0]) {
		t.Fatalf("plan %+v", ex)
	}
	// The abandoned SHOW EXPLAIN is killed, and hidden until then.
	for i := 0; i < 10; i++ {
		for _, p := range next(t, l).Processlist {
			if strings.Contains(p.Info, "mytop-go") {
				t.Fatalf("monitor thread visible: %+v", p)
			}
		}
	}
	var stuck int
	openDB(t, srv.DSN("")).QueryRow("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE '%SHOW EXPLAIN FOR%' AND ID <> CONNECTION_ID()").Scan(&stuck)
	if stuck != 0 {
		t.Errorf("%d SHOW EXPLAIN statements left running", stuck)
	}
}

func TestLiveExplainAction(t *testing.T) {
	// Serial: on the shared server, whose processlist and sessions other tests' monitors would share.
	srv := sharedServer(t)
	srv.Exec(t, "CREATE DATABASE IF NOT EXISTS act", "CREATE TABLE IF NOT EXISTS act.t (id INT PRIMARY KEY, c INT)", "REPLACE INTO act.t VALUES (3, 3), (4, 4)")
	l := newLive(t, rootOptions(srv), testInterval, nil)
	ctx := context.Background()
	// An idle thread has no running plan, so the text is explained.
	idle := idleThreadID(t, srv)

	rows, err := l.Explain(ctx, idle, "SELECT * FROM act.t WHERE c = 3")
	if err != nil || len(rows) != 1 || rows[0].Type != "ALL" {
		t.Fatalf("got %+v, %v", rows, err)
	}
	rows, err = l.Explain(ctx, idle, "/* x */ SELECT * FROM act.t WHERE id = 3")
	if err != nil || len(rows) != 1 || rows[0].Type != "const" {
		t.Errorf("by primary key: got %+v, %v", rows, err)
	}
	for _, bad := range []string{"DROP TABLE act.t", "ANALYZE SELECT * FROM act.t", "SELECT 1; DROP TABLE act.t"} {
		if _, err := l.Explain(ctx, idle, bad); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
	var n int
	if err := openDB(t, srv.DSN("")).QueryRow("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA='act'").Scan(&n); err != nil || n != 1 {
		t.Errorf("act.t must survive: %d %v", n, err)
	}
	if _, err := l.Explain(ctx, 0, "SELECT 1"); err == nil || !strings.Contains(err.Error(), "invalid thread id") {
		t.Errorf("thread 0: %v", err)
	}
}

// idleThreadID opens a connection that stays idle and returns its id.
func idleThreadID(t *testing.T, srv *testdb.Server) int64 {
	t.Helper()
	conn, err := openDB(t, srv.DSN("")).Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	var id int64
	if err := conn.QueryRowContext(context.Background(), "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}
