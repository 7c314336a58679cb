package analyzers

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// More integration proofs: each incident's workload starts once the monitor is
// sampling, and the test measures how long the finding takes to stand.

// workload runs client loops against a test server until the test ends.
type workload struct {
	t      *testing.T
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	began  time.Time
}

// newWorkload returns a workload stopped (and waited for) before the server
// is, since cleanups run last-registered first.
func newWorkload(t *testing.T) *workload {
	ctx, cancel := context.WithCancel(context.Background())
	w := &workload{t: t, ctx: ctx, cancel: cancel}
	t.Cleanup(w.stop)
	return w
}

func (w *workload) stop() {
	w.cancel()
	w.wg.Wait()
}

// clients runs n loops, each on its own connection, executing next()'s
// statement and then pausing pause, until the workload stops.
func (w *workload) clients(db *sql.DB, n int, pause time.Duration, next func(r *rand.Rand) string) {
	for i := range n {
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			r := rand.New(rand.NewPCG(uint64(i), 7))
			for w.ctx.Err() == nil {
				rows, err := db.QueryContext(w.ctx, next(r))
				if err == nil {
					for rows.Next() {
					}
					err = rows.Close()
				}
				if err != nil && w.ctx.Err() == nil {
					w.t.Logf("client %d: %v", i, err)
					time.Sleep(100 * time.Millisecond)
				}
				if pause > 0 {
					time.Sleep(pause)
				}
			}
		}()
	}
}

// watchOnset watches srv with thresholds c, calls start once the monitor is
// sampling a server past its warm-up (so the time measured is the rule's, not
// a fresh server's), and stops at the first frame where found returns a
// finding or after d. It returns the frames, that finding and how long after
// start it stood.
func watchOnset(t *testing.T, srv *testdb.Server, c Config, d time.Duration, w *workload, start func(),
	found func(*snapshot.Frame) *snapshot.Finding) ([]*snapshot.Frame, *snapshot.Finding, time.Duration) {
	t.Helper()
	var got *snapshot.Finding
	var after time.Duration
	frames := watchWith(t, srv, c, d, func(f *snapshot.Frame) bool {
		if up, ok := f.Snapshot.Uptime(); w.began.IsZero() && (!ok || up < c.WarmupSeconds) {
			return false
		}
		if w.began.IsZero() {
			w.began = time.Now()
			start()
			return false
		}
		got = found(f)
		after = f.Snapshot.Time.Sub(w.began)
		return got != nil
	})
	if got == nil {
		t.Fatalf("no finding in %d frames (%s)", len(frames), time.Since(w.began).Round(time.Second))
	}
	t.Logf("%s/%s stood %.1f s after the workload started: %s\n%s\n%s", got.ID, got.Severity, after.Seconds(),
		got.Title, strings.Join(got.Evidence, "\n"), got.Advice)
	return frames, got, after
}

// idFinding returns a found func for rule id at sev or above.
func idFinding(id string, sev snapshot.Severity) func(*snapshot.Frame) *snapshot.Finding {
	return func(f *snapshot.Frame) *snapshot.Finding {
		if x := findingIn(f, id); x != nil && x.Severity >= sev {
			return x
		}
		return nil
	}
}

// wantEvidence fails the test for each want missing from the finding's text.
func wantEvidence(t *testing.T, got *snapshot.Finding, wants ...string) {
	t.Helper()
	all := got.Title + "\n" + strings.Join(got.Evidence, "\n") + "\n" + got.Advice
	for _, want := range wants {
		if !strings.Contains(all, want) {
			t.Errorf("finding lacks %q", want)
		}
	}
}

// randomIDs is "IN (…)" of n random ids in 1..max.
func randomIDs(r *rand.Rand, n, max int) string {
	var b strings.Builder
	b.WriteString("(")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprint(&b, 1+r.IntN(max))
	}
	b.WriteString(")")
	return b.String()
}

func TestIntegrationBufferPoolMiss(t *testing.T) {
	if testing.Short() {
		t.Skip("starts MariaDB")
	}
	// 6M is below MariaDB 10.11's smallest pool; the server raises it to its
	// minimum, which the test reads back.
	srv := testdb.Start(t, "--innodb-buffer-pool-size=6M")
	const rows = 400000
	srv.Exec(t, "CREATE DATABASE shop", "CREATE DATABASE seq",
		"CREATE TABLE shop.big (id INT PRIMARY KEY, pad CHAR(100) NOT NULL) ENGINE=InnoDB",
		fmt.Sprintf("INSERT INTO shop.big SELECT seq, REPEAT(CHAR(65 + seq %% 26), 100) FROM seq.seq_1_to_%d", rows))
	db := srv.DB(t)
	w := newWorkload(t)
	frames, got, after := watchOnset(t, srv, DefaultConfig(), 60*time.Second, w, func() {
		w.clients(db, 4, 0, func(r *rand.Rand) string {
			return "SELECT id, pad FROM shop.big WHERE id IN " + randomIDs(r, 200, rows)
		})
	}, idFinding(IDBufferPoolMiss, snapshot.Warning))
	pool := frames[len(frames)-1].Snapshot.Variables["innodb_buffer_pool_size"]
	t.Logf("innodb_buffer_pool_size %s; buffer_pool_miss after %.1f s", pool, after.Seconds())
	wantEvidence(t, got, "Innodb_buffer_pool_reads", "Innodb_buffer_pool_read_requests",
		"innodb_buffer_pool_size="+fmtBytes(parseFloat(pool)),
		"running now: ", "select id, pad from shop.big where id in (?+)")
}

func parseFloat(s string) float64 {
	var f float64
	fmt.Sscan(s, &f)
	return f
}

func TestIntegrationDeepOffsetPagination(t *testing.T) {
	if testing.Short() {
		t.Skip("starts MariaDB")
	}
	srv := testdb.Start(t)
	fullScanTable(t, srv)
	db := srv.DB(t)
	w := newWorkload(t)
	// Incident 000: a listing page 3,000 deep, 20 rows a page.
	_, got, after := watchOnset(t, srv, DefaultConfig(), 60*time.Second, w, func() {
		w.clients(db, 4, 0, func(*rand.Rand) string {
			return "SELECT id, c, pad FROM shop.t ORDER BY id LIMIT 20 OFFSET 60000"
		})
	}, idFinding(IDDeepOffsetPagination, snapshot.Warning))
	t.Logf("deep_offset_pagination after %.1f s", after.Seconds())
	wantEvidence(t, got, "OFFSET up to 60,000", "OFFSET 60,000: thread ",
		"select id, c, pad from shop.t order by id limit ? offset ?", "Handler_read_next")
	if len(got.Threads) == 0 {
		t.Error("no threads named")
	}
}

func TestIntegrationTableLockContention(t *testing.T) {
	if testing.Short() {
		t.Skip("starts MariaDB")
	}
	// MyISAM locks whole tables: 12 clients mixing scans and inserts queue.
	// With the default concurrent_insert=AUTO, inserts append beside the
	// readers and over 99 % of locks are granted at once (measured: 1–12
	// waits/s against 200–1,100 immediate), so there is no contention to find;
	// NEVER (as when deleted rows leave holes) makes every insert wait.
	srv := testdb.Start(t, "--concurrent-insert=NEVER")
	w := newWorkload(t)
	slap := exec.CommandContext(w.ctx, "mariadb-slap", "--no-defaults", "--socket="+srv.Socket, "-uroot",
		"--auto-generate-sql", "--auto-generate-sql-load-type=mixed", "--engine=myisam", "--concurrency=12",
		"--iterations=1", "--number-of-queries=10000000")
	_, got, after := watchOnset(t, srv, DefaultConfig(), 60*time.Second, w, func() {
		if err := slap.Start(); err != nil {
			t.Fatalf("mariadb-slap: %v", err)
		}
		w.wg.Add(1)
		go func() { defer w.wg.Done(); slap.Wait() }()
	}, idFinding(IDTableLockContention, snapshot.Warning))
	t.Logf("table_lock_contention after %.1f s", after.Seconds())
	wantEvidence(t, got, "Table_locks_waited ", "Table_locks_immediate ", "% of table locks immediate this interval",
		"mysqlslap")
}
