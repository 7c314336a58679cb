package analyzers

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// Integration proofs: the incidents reproduced on a throwaway MariaDB, sampled
// by the real collectors, judged by the real engine.

// logFrame keeps what the engine saw, for a failing run's log. The lines are
// written when the test ends and only if it failed, after its errors: a
// log cut to its first lines (as CI shows it) then still holds the error.
func logFrame(t *testing.T, f *snapshot.Frame) {
	states := map[string]int{}
	for _, p := range f.Snapshot.Processlist {
		if p.Command != "Sleep" && p.State != "" {
			states[p.State]++
		}
	}
	var ids []string
	for _, x := range f.Findings {
		ids = append(ids, x.ID+"/"+x.Severity.String())
	}
	frameLogOf(t).add(fmt.Sprintf("frame %d: states %v findings %v", f.Seq, states, ids))
}

// frameLog holds a test's frame lines until it ends.
type frameLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *frameLog) add(line string) {
	l.mu.Lock()
	l.lines = append(l.lines, line)
	l.mu.Unlock()
}

var frameLogs sync.Map // *testing.T -> *frameLog

func frameLogOf(t *testing.T) *frameLog {
	v, loaded := frameLogs.LoadOrStore(t, &frameLog{})
	l := v.(*frameLog)
	if !loaded {
		t.Cleanup(func() {
			frameLogs.Delete(t)
			if !t.Failed() {
				return
			}
			l.mu.Lock()
			defer l.mu.Unlock()
			t.Logf("the frames, as the engine saw them:\n%s", strings.Join(l.lines, "\n"))
		})
	}
	return l
}

func findingIn(f *snapshot.Frame, id string) *snapshot.Finding {
	for i := range f.Findings {
		if f.Findings[i].ID == id {
			return &f.Findings[i]
		}
	}
	return nil
}

func TestIntegrationQueryCacheContention(t *testing.T) {
	t.Parallel()
	testdb.Heavy(t) // mariadb-slap, 10 clients flat out
	srv := testdb.Start(t, "--query-cache-type=1", "--query-cache-size=128M")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The query-cache write-up's benchmark: 10 clients reading MyISAM rows by key while
	// the query cache is on.
	slap := exec.CommandContext(ctx, "mariadb-slap", "--no-defaults", "--socket="+srv.Socket, "-uroot",
		"--auto-generate-sql", "--engine=myisam", "--auto-generate-sql-add-autoincrement",
		"--number-int-cols=10", "--number-char-cols=10", "--concurrency=10", "--iterations=1000",
		"--auto-generate-sql-write-number=1000", "--number-of-queries=100000",
		"--auto-generate-sql-load-type=key")
	if err := slap.Start(); err != nil {
		t.Fatalf("mariadb-slap: %v", err)
	}
	defer func() { cancel(); slap.Wait() }()
	// A 1-s sample catches the convoy now and then; allow for a loaded machine.
	frames := watch(t, srv, within(90*time.Second), until(func(f *snapshot.Frame) bool {
		return findingIn(f, IDQueryCacheContention) != nil
	})).frames
	f := frames[len(frames)-1]
	got := findingIn(f, IDQueryCacheContention)
	if got == nil {
		t.Fatalf("no query_cache_contention in %d frames", len(frames))
	}
	t.Logf("%s: %s\n%s", got.ID, got.Title, strings.Join(got.Evidence, "\n"))
	all := strings.Join(got.Evidence, "\n")
	for _, want := range []string{"Waiting for query cache lock", "query_cache_size=128M", "Qcache_hits", "select intcol1"} {
		if !strings.Contains(all, want) {
			t.Errorf("evidence lacks %q", want)
		}
	}
	if len(got.Threads) == 0 {
		t.Error("no threads named")
	}
}

// fullScanTable makes shop.t: 300,000 InnoDB rows, primary key id, no index on c.
// The load holds the heavy slot (testdb.ExecHeavy) while it runs.
func fullScanTable(t *testing.T, srv *testdb.Server) {
	srv.ExecHeavy(t, "CREATE DATABASE shop", "CREATE DATABASE seq",
		"CREATE TABLE shop.t (id INT PRIMARY KEY, c INT NOT NULL, v INT NOT NULL DEFAULT 0, pad CHAR(40)) ENGINE=InnoDB",
		"INSERT INTO shop.t SELECT seq, seq % 1000, 0, REPEAT('x', 40) FROM seq.seq_1_to_300000",
		"ANALYZE TABLE shop.t")
}

// slowUpdate runs q in the background; the IF(…SLEEP…) term spreads its work
// over seconds so the monitor sees it running, as a big table would.
func slowUpdate(t *testing.T, srv *testdb.Server, q string) {
	db := srv.DB(t)
	go func() {
		if _, err := db.Exec(q); err != nil {
			t.Logf("%s: %v", q, err)
		}
	}()
}

func TestIntegrationFullScanUpdate(t *testing.T) {
	t.Parallel()
	// Heavy: the rule reads the statement's progress from 1-s samples; beside
	// a heavy test on 2 cores the samples slip and the one long UPDATE was
	// once read as short ones run again and again (full run of 2026-12-03).
	testdb.Heavy(t)
	srv := testdb.Start(t)
	fullScanTable(t, srv)
	const q = "UPDATE shop.t SET v = v + 1 WHERE IF(id % 1000 = 0, SLEEP(0.04), 0) = 0 AND c = 7"
	slowUpdate(t, srv, q)
	frames := watch(t, srv, within(20*time.Second), until(func(f *snapshot.Frame) bool {
		return findingIn(f, IDFullScanUpdate) != nil && findingIn(f, IDFullScanUpdate).Severity >= snapshot.Warning
	})).frames
	got := findingIn(frames[len(frames)-1], IDFullScanUpdate)
	if got == nil || got.Severity < snapshot.Warning {
		t.Fatalf("no confirmed full_scan_update in %d frames: %+v", len(frames), got)
	}
	t.Logf("%s: %s\n%s\n%s", got.ID, got.Title, strings.Join(got.Evidence, "\n"), got.Advice)
	all := got.Title + "\n" + strings.Join(got.Evidence, "\n") + "\n" + got.Advice
	for _, want := range []string{"UPDATE shop.t", "update shop.t set v = v + ? where if", "plan (SHOW EXPLAIN FOR)",
		"shop.t(c)"} {
		if !strings.Contains(all, want) {
			t.Errorf("finding lacks %q", want)
		}
	}
	// The rows read are counted by whichever proof confirmed first: one
	// run's rows examined so far, or runs seen again and again and the rows
	// a second they read (both seen in full runs).
	if !strings.Contains(all, "rows examined") && !strings.Contains(all, "rows/s read by it") {
		t.Errorf("finding counts no rows read (rows examined, or rows/s read by it)")
	}
	// InnoDB scans the clustered index: MariaDB plans type ALL or a full "index" scan of PRIMARY.
	if !strings.Contains(all, "type ALL") && !strings.Contains(all, "type index") {
		t.Error("finding does not show the full-scan plan")
	}
}

func TestIntegrationPrimaryKeyUpdateIsHealthy(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t)
	fullScanTable(t, srv)
	const q = "UPDATE shop.t SET v = v + 1 WHERE id BETWEEN 150000 AND 150100 AND SLEEP(0.08) = 0"
	slowUpdate(t, srv, q)
	sawIt := false
	// Past the warm-up, so ratio rules judge too: the monitor's own footprint
	// must not raise anything on a healthy server.
	frames := watch(t, srv, within(18*time.Second), until(func(f *snapshot.Frame) bool {
		for _, p := range f.Snapshot.Processlist {
			ex := f.Snapshot.Explains[snapshot.Fingerprint(q)]
			if p.Info == q && p.TimeMS >= 6000 && ex != nil && !sawIt {
				t.Logf("plan %s: %+v (error %q)", ex.Method, ex.Rows, ex.Error)
				sawIt = ex.Error == "" && len(ex.Rows) == 1 && ex.Rows[0].Key == "PRIMARY"
			}
		}
		return false
	})).frames
	if !sawIt {
		t.Fatalf("the UPDATE was not seen running with its PRIMARY plan in %d frames", len(frames))
	}
	// A healthy server with one well-indexed slow UPDATE: nothing above info
	// (a freshly started test server is reported as such).
	for _, f := range frames {
		for _, got := range f.Findings {
			if got.ID != IDFullScanUpdate && briefSilenceExcused(t, f, got) {
				continue
			}
			if got.ID == IDFullScanUpdate || got.Severity > snapshot.Info {
				t.Errorf("frame %d: %s %s: %s %s", f.Seq, got.ID, got.Severity, got.Title, fmt.Sprint(got.Evidence))
			}
		}
	}
}
