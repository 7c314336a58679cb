package analyzers

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/collectors"
	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// Integration proofs of the backup, commit, purge, buffer-pool and query
// cache rules on a throwaway MariaDB 10.11, each with a healthy twin that
// must stay quiet. Each logs its time to detection.

// ordersTable makes shop.orders, a small InnoDB table for writes.
func ordersTable(t *testing.T, srv *testdb.Server) {
	srv.Exec(t, "CREATE DATABASE shop",
		"CREATE TABLE shop.orders (id INT AUTO_INCREMENT PRIMARY KEY, item INT NOT NULL, at DATETIME NOT NULL) ENGINE=InnoDB",
		"INSERT INTO shop.orders (item, at) VALUES (1, NOW()), (2, NOW())")
}

// quietBut fails the test for any finding at warning or above, and for any
// finding of the listed rules at all.
func quietBut(t *testing.T, frames []*snapshot.Frame, ids ...string) {
	t.Helper()
	for _, f := range frames {
		for _, x := range f.Findings {
			listed := false
			for _, id := range ids {
				listed = listed || x.ID == id
			}
			if !listed && briefSilenceExcused(t, f, x) {
				continue
			}
			if listed || x.Severity > snapshot.Info {
				t.Errorf("frame %d: %s/%s: %s\n%s", f.Seq, x.ID, x.Severity, x.Title, strings.Join(x.Evidence, "\n"))
			}
		}
	}
}

// dropWarmUp removes buffer_pool_miss findings that say themselves the pool
// is still warming up after the start: the harness's 16M pool on a fresh
// server, not the purge behaviour this twin is about.
func dropWarmUp(frames []*snapshot.Frame) []*snapshot.Frame {
	out := make([]*snapshot.Frame, len(frames))
	for i, f := range frames {
		c := *f
		c.Findings = nil
		for _, x := range f.Findings {
			if x.ID == IDBufferPoolMiss && strings.Contains(strings.Join(x.Evidence, "\n"), "warming up") {
				continue
			}
			c.Findings = append(c.Findings, x)
		}
		out[i] = &c
	}
	return out
}

func TestIntegrationGlobalReadLockFTWRL(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t)
	ordersTable(t, srv)
	db := srv.DB(t)
	w := newWorkload(t)
	var holder int64
	var writers []int64
	_, got, after := watch(t, srv, within(60*time.Second), load(w, func() {
		// A report reads for a while; the backup's FTWRL does not wait for it
		// on 10.4+ and holds the lock from an idle session; writes queue.
		w.blocked(db, "SELECT COUNT(*), SLEEP(40) FROM shop.orders")
		h := w.session(db)
		holder = h.id
		h.exec(w, "FLUSH TABLES WITH READ LOCK")
		time.Sleep(500 * time.Millisecond)
		for i := range 3 {
			writers = append(writers, w.blocked(db, fmt.Sprintf("INSERT INTO shop.orders (item, at) VALUES (%d, NOW())", 10+i)))
		}
	}), onset(idFinding(IDGlobalReadLockPileup, snapshot.Warning))).result()
	t.Logf("global_read_lock_pileup (FTWRL held) after %.1f s", after.Seconds())
	wantThreads(t, got, append([]int64{holder}, writers...)...)
	wantEvidence(t, got, "3 in \"Waiting for backup lock\"", fmt.Sprintf("held by thread %d", holder),
		"MariaDB 10.4+", "insert into shop.orders (item, at) values (?, now())", fmt.Sprintf("KILL %d", holder))
	if got.Threads[0] != holder {
		t.Errorf("threads %v: the holder %d is the root and comes first", got.Threads, holder)
	}
}

func TestIntegrationGlobalReadLockBackupStage(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t)
	ordersTable(t, srv)
	db := srv.DB(t)
	w := newWorkload(t)
	var holder int64
	var waiting []int64
	_, got, after := watch(t, srv, within(60*time.Second), load(w, func() {
		// mariabackup's sequence up to the phase that blocks commits.
		h := w.session(db)
		holder = h.id
		h.exec(w, "BACKUP STAGE START", "BACKUP STAGE FLUSH", "BACKUP STAGE BLOCK_DDL", "BACKUP STAGE BLOCK_COMMIT")
		time.Sleep(500 * time.Millisecond)
		waiting = append(waiting, w.blocked(db, "INSERT INTO shop.orders (item, at) VALUES (7, NOW())"),
			w.blocked(db, "ALTER TABLE shop.orders ADD COLUMN note INT"))
	}), onset(idFinding(IDGlobalReadLockPileup, snapshot.Warning))).result()
	t.Logf("global_read_lock_pileup (BACKUP STAGE BLOCK_COMMIT) after %.1f s", after.Seconds())
	wantThreads(t, got, append([]int64{holder}, waiting...)...)
	wantEvidence(t, got, "2 in \"Waiting for backup lock\"", fmt.Sprintf("held by thread %d", holder),
		"alter table shop.orders add column note int")
}

func TestIntegrationGlobalReadLockBriefFTWRLIsHealthy(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t)
	ordersTable(t, srv)
	db := srv.DB(t)
	w := newWorkload(t)
	// A dump's consistent start: FTWRL, note the position, UNLOCK at once,
	// every few seconds, while the application writes.
	frames := watch(t, srv, load(w, func() {
		w.clients(db, 2, 20*time.Millisecond, func(r *rand.Rand) string {
			return fmt.Sprintf("INSERT INTO shop.orders (item, at) VALUES (%d, NOW())", r.IntN(1000))
		})
		h := w.session(db)
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			for w.ctx.Err() == nil {
				h.conn.ExecContext(w.ctx, "FLUSH TABLES WITH READ LOCK")
				h.conn.ExecContext(w.ctx, "SHOW MASTER STATUS")
				h.conn.ExecContext(w.ctx, "UNLOCK TABLES")
				time.Sleep(3 * time.Second)
			}
		}()
	}), runFor(30*time.Second)).frames
	quietBut(t, frames, IDGlobalReadLockPileup)
}

// autocommitInserts runs n clients each inserting one row per statement.
func autocommitInserts(w *workload, srv *testdb.Server, n int, pause time.Duration) {
	w.clients(srv.DB(w.t), n, pause, func(r *rand.Rand) string {
		return fmt.Sprintf("INSERT INTO shop.orders (item, at) VALUES (%d, NOW())", r.IntN(100000))
	})
}

func TestIntegrationCommitFsyncBound(t *testing.T) {
	t.Parallel()
	testdb.Heavy(t) // 8 clients flat out; reads the host disk
	srv := testdb.Start(t, "--innodb-flush-log-at-trx-commit=1")
	ordersTable(t, srv)
	w := newWorkload(t)
	// The host's /proc/diskstats tells what each flush costs the device.
	c := noWarmup(DefaultConfig())
	var got *snapshot.Finding
	var after time.Duration
	frames := watch(t, srv, within(60*time.Second), judged(c), withHost(&collectors.Host{}), until(func(f *snapshot.Frame) bool {
		if !w.startWhenWarm(f, c, func() { autocommitInserts(w, srv, 8, 0) }) {
			return false
		}
		got, after = findingIn(f, IDCommitFsyncBound), f.Snapshot.Time.Sub(w.began)
		return got != nil
	})).frames
	if got == nil {
		t.Fatalf("no commit_fsync_bound in %d frames", len(frames))
	}
	t.Logf("%s: %s\n%s\n%s", got.ID, got.Title, strings.Join(got.Evidence, "\n"), got.Advice)
	t.Logf("commit_fsync_bound/%s after %.1f s", got.Severity, after.Seconds())
	wantEvidence(t, got, "Innodb_data_fsyncs/s", "write commits/s", "innodb_flush_log_at_trx_commit=1", "flushes/s at",
		"innodb_flush_log_at_trx_commit=2", "crash")
}

func TestIntegrationCommitFsyncLightLoadIsHealthy(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--innodb-flush-log-at-trx-commit=1")
	ordersTable(t, srv)
	w := newWorkload(t)
	// The same server and statements at an application's pace: an fsync per
	// commit still, about 40 a second, and nobody waits for them.
	frames := watch(t, srv, load(w, func() {
		autocommitInserts(w, srv, 2, 50*time.Millisecond)
	}), runFor(30*time.Second)).frames
	quietBut(t, frames, IDCommitFsyncBound)
	last := frames[len(frames)-1]
	ins, _ := last.Rates.Rate("Com_insert")
	fs, _ := last.Rates.Rate(dataFsyncs)
	t.Logf("light load: %.0f inserts/s, %.0f fsyncs/s", ins, fs)
	if ins < 5 {
		t.Errorf("only %.0f inserts/s: the workload did not run", ins)
	}
}

// purgeConfig shortens purge_lag's minutes to 10 s steps and its threshold
// to 5,000, so the proof takes seconds; the rule and its inputs are the same.
func purgeConfig() Config {
	c := DefaultConfig()
	c.PurgeLagWarn, c.PurgeLagCrit, c.PurgeLagStep = 5000, 1e9, 10*time.Second
	return c
}

// rowUpdates runs n clients updating random rows of shop.acct one by one.
func rowUpdates(w *workload, srv *testdb.Server, n int) {
	w.clients(srv.DB(w.t), n, 0, func(r *rand.Rand) string {
		return fmt.Sprintf("UPDATE shop.acct SET bal = bal + 1 WHERE id = %d", 1+r.IntN(1000))
	})
}

func TestIntegrationPurgeLag(t *testing.T) {
	t.Parallel()
	testdb.Heavy(t) // 4 clients flat out
	srv := testdb.Start(t)
	accounts(t, srv)
	db := srv.DB(t)
	w := newWorkload(t)
	var report int64
	_, got, after := watch(t, srv, within(90*time.Second), judged(noWarmup(purgeConfig())), load(w, func() {
		// A report opened a consistent snapshot and went idle; every change
		// committed since waits for it before purge may remove its undo.
		s := w.session(db)
		report = s.id
		s.exec(w, "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ",
			"START TRANSACTION WITH CONSISTENT SNAPSHOT", "SELECT COUNT(*) FROM shop.acct")
		rowUpdates(w, srv, 4)
	}), onset(idFinding(IDPurgeLag, snapshot.Warning))).result()
	t.Logf("purge_lag after %.1f s (steps of 10 s, threshold 5,000)", after.Seconds())
	wantThreads(t, got, report)
	wantEvidence(t, got, "purge lags: history list length", "oldest read view: the read-only trx of connection", "its read view sees only trx <",
		"idle (Sleep)", "read views open inside InnoDB", "Commit or roll back the read-only trx of connection")
}

func TestIntegrationPurgeKeepsUpIsHealthy(t *testing.T) {
	t.Parallel()
	testdb.Heavy(t) // 4 clients flat out
	srv := testdb.Start(t)
	accounts(t, srv)
	w := newWorkload(t)
	// The same updates with no snapshot held open: purge keeps the list short.
	// Short, not flat: purge works in batches, and on this 2-core machine
	// with other tests' servers beside it the list swung between 3,582 and
	// 9,559 for 20 s in one full run, past the proof's 5,000 (a tenth of the
	// shipped 50,000, with 10 s steps for minutes). The twin is judged at
	// 20,000: above a healthy purge's swing under this load, still below
	// the shipped 50,000.
	c := purgeConfig()
	c.WarmupSeconds = 0 // as heavyTwin
	c.PurgeLagWarn = 20000
	// 20 s: as long as the proof takes to raise purge_lag under the same
	// updates with a snapshot held (two of its 10-s steps).
	frames := watch(t, srv, judged(c), load(w, func() { rowUpdates(w, srv, 4) }), runFor(20*time.Second)).frames
	quietBut(t, dropWarmUp(frames), IDPurgeLag)
	v, _ := historyLength(frames[len(frames)-1].Snapshot)
	t.Logf("history list length at the end: %d", v)
}

// randomRowUpdates dirties random pages of shop.big, one row per statement.
func randomRowUpdates(w *workload, srv *testdb.Server, n, rows int) {
	w.clients(srv.DB(w.t), n, 0, func(r *rand.Rand) string {
		return fmt.Sprintf("UPDATE shop.big SET pad = REPEAT(CHAR(%d), 200) WHERE id = %d", 65+r.IntN(20), 1+r.IntN(rows))
	})
}

// bigTable makes shop.big: 200,000 rows of 200 bytes, about 50 MB.
// The load holds the heavy slot (testdb.ExecHeavy) while it runs.
func bigTable(t *testing.T, srv *testdb.Server, rows int) {
	srv.ExecHeavy(t, "CREATE DATABASE shop", "CREATE DATABASE seq",
		"CREATE TABLE shop.big (id INT PRIMARY KEY, pad CHAR(200) NOT NULL) ENGINE=InnoDB",
		fmt.Sprintf("INSERT INTO shop.big SELECT seq, REPEAT('a', 200) FROM seq.seq_1_to_%d", rows))
}

func TestIntegrationBufferPoolWaitFree(t *testing.T) {
	t.Parallel()
	// The smallest pool 10.11 allows and a page cleaner told the disk does
	// 100 IOPS: random updates dirty pages faster than it frees them.
	testdb.Heavy(t) // 6 clients flat out, a bulk load
	srv := testdb.Start(t, "--innodb-buffer-pool-size=6M", "--innodb-io-capacity=100", "--innodb-io-capacity-max=100")
	const rows = 200000
	bigTable(t, srv, rows)
	w := newWorkload(t)
	_, got, after := watch(t, srv, within(90*time.Second), judged(noWarmup(DefaultConfig())), load(w, func() {
		randomRowUpdates(w, srv, 6, rows)
	}), onset(idFinding(IDBufferPoolWaitFree, snapshot.Warning))).result()
	t.Logf("buffer_pool_wait_free after %.1f s", after.Seconds())
	wantEvidence(t, got, "Innodb_buffer_pool_wait_free", "free pages", "dirty pages",
		"innodb_io_capacity=100, innodb_io_capacity_max=100", "raise innodb_io_capacity (now 100)")
}

func TestIntegrationBufferPoolWaitFreeLargePoolIsHealthy(t *testing.T) {
	t.Parallel()
	// A pool that holds the table, a redo log sized for the writes, and the
	// same updates at an application's pace.
	srv := testdb.Start(t, "--innodb-buffer-pool-size=128M", "--innodb-log-file-size=128M")
	const rows = 200000
	bigTable(t, srv, rows)
	w := newWorkload(t)
	frames := watch(t, srv, load(w, func() {
		w.clients(srv.DB(t), 2, 5*time.Millisecond, func(r *rand.Rand) string {
			return fmt.Sprintf("UPDATE shop.big SET pad = REPEAT('b', 200) WHERE id = %d", 1+r.IntN(rows))
		})
	}), runFor(40*time.Second)).frames
	quietBut(t, frames, IDBufferPoolWaitFree)
}

// qcReads runs n clients reading shop.acct by key: distinct ids keep adding
// new results to the cache, a few repeated ids are served from it.
func qcReads(w *workload, srv *testdb.Server, n, distinct int) {
	w.clients(srv.DB(w.t), n, 2*time.Millisecond, func(r *rand.Rand) string {
		return fmt.Sprintf("SELECT bal FROM shop.acct WHERE id = %d", 1+r.IntN(distinct))
	})
}

func TestIntegrationQueryCacheInefficient(t *testing.T) {
	t.Parallel()
	// A small cache in front of reads that rarely repeat: each new result
	// pushes an older one out before anyone asks for it again. (Writes to
	// the table would empty the cache instead: no prunes, only inserts.)
	testdb.Heavy(t) // a bulk load, 3 clients
	srv := testdb.Start(t, "--query-cache-type=1", "--query-cache-size=256K")
	accounts(t, srv)
	srv.Exec(t, "INSERT INTO shop.acct SELECT seq, 100 FROM seq.seq_1001_to_200000")
	w := newWorkload(t)
	_, got, after := watch(t, srv, within(90*time.Second), judged(noWarmup(DefaultConfig())), load(w, func() {
		qcReads(w, srv, 3, 200000)
	}), onset(idFinding(IDQueryCacheInefficient, snapshot.Warning))).result()
	t.Logf("query_cache_inefficient after %.1f s", after.Seconds())
	wantEvidence(t, got, "query cache does not pay", "Qcache_hits", "Qcache_inserts", "Qcache_lowmem_prunes",
		"query_cache_size=256K", "switch the cache off")
}

func TestIntegrationQueryCacheThatPaysIsHealthy(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--query-cache-type=1", "--query-cache-size=16M")
	accounts(t, srv)
	w := newWorkload(t)
	// The same reads on 50 hot rows and no writes: the cache serves them.
	frames := watch(t, srv, load(w, func() { qcReads(w, srv, 3, 50) }), runFor(45*time.Second)).frames
	quietBut(t, frames, IDQueryCacheInefficient)
	last := frames[len(frames)-1]
	hits, _ := last.Rates.Rate(qcHits)
	t.Logf("Qcache_hits %.0f/s at the end", hits)
	if hits < 10 {
		t.Errorf("only %.0f hits/s: the cache was not used", hits)
	}
	// And a server with the cache off never judges it.
	off := testdb.Start(t)
	accounts(t, off)
	w2 := newWorkload(t)
	frames = watch(t, off, load(w2, func() { qcReads(w2, off, 2, 200000) }), runFor(5*time.Second)).frames
	if na := frames[len(frames)-1].NotApplicable[IDQueryCacheInefficient]; !strings.Contains(na, "off") {
		t.Errorf("query_cache_inefficient on a server without the cache: %q, want not applicable", na)
	}
}

func TestIntegrationBufferPoolMissSizing(t *testing.T) {
	t.Parallel()
	// buffer_pool_miss's workload, watched with the host's figures: the
	// evidence sets the pool against RAM and InnoDB's files, the advice names a size.
	testdb.Heavy(t) // 4 clients flat out; reads the host
	srv := testdb.Start(t, "--innodb-buffer-pool-size=6M")
	const rows = 400000
	srv.Exec(t, "CREATE DATABASE shop", "CREATE DATABASE seq",
		"CREATE TABLE shop.big (id INT PRIMARY KEY, pad CHAR(100) NOT NULL) ENGINE=InnoDB",
		fmt.Sprintf("INSERT INTO shop.big SELECT seq, REPEAT(CHAR(65 + seq %% 26), 100) FROM seq.seq_1_to_%d", rows))
	db := srv.DB(t)
	w := newWorkload(t)
	c := noWarmup(DefaultConfig())
	var got *snapshot.Finding
	frames := watch(t, srv, within(60*time.Second), judged(c), withHost(&collectors.Host{}), until(func(f *snapshot.Frame) bool {
		if !w.startWhenWarm(f, c, func() {
			w.clients(db, 4, 0, func(r *rand.Rand) string {
				return "SELECT id, pad FROM shop.big WHERE id IN " + randomIDs(r, 200, rows)
			})
		}) {
			return false
		}
		got = idFinding(IDBufferPoolMiss, snapshot.Warning)(f)
		return got != nil
	})).frames
	if got == nil {
		t.Fatalf("no buffer_pool_miss in %d frames", len(frames))
	}
	s := frames[len(frames)-1].Snapshot
	t.Logf("InnoDB files %d bytes, MemTotal %d\n%s\n%s", s.InnoDBFileBytes, s.Host.MemTotal,
		strings.Join(got.Evidence, "\n"), got.Advice)
	if s.InnoDBFileBytes < 40<<20 {
		t.Errorf("InnoDB files %d bytes: the 40+ MB table is not counted", s.InnoDBFileBytes)
	}
	wantEvidence(t, got, "% of the host's", "RAM (70–80 % on a server that runs nothing else)",
		"InnoDB tablespace files", "set innodb_buffer_pool_size=")
}

// TestIntegrationPurgeLagDefaults is the same proof with the shipped
// thresholds (50,000, growth over two 1-minute steps): about 2.5 minutes,
// so it runs only with MYTOP_LONG_TESTS=1.
func TestIntegrationPurgeLagDefaults(t *testing.T) {
	if testing.Short() || os.Getenv("MYTOP_LONG_TESTS") == "" {
		t.Skip("takes minutes: set MYTOP_LONG_TESTS=1")
	}
	t.Parallel()
	testdb.Heavy(t) // 4 clients flat out
	srv := testdb.Start(t)
	accounts(t, srv)
	db := srv.DB(t)
	w := newWorkload(t)
	var report int64
	_, got, after := watch(t, srv, within(240*time.Second), judged(noWarmup(DefaultConfig())), load(w, func() {
		s := w.session(db)
		report = s.id
		s.exec(w, "START TRANSACTION WITH CONSISTENT SNAPSHOT", "SELECT COUNT(*) FROM shop.acct")
		rowUpdates(w, srv, 4)
	}), onset(idFinding(IDPurgeLag, snapshot.Warning))).result()
	t.Logf("purge_lag with default thresholds after %.1f s", after.Seconds())
	wantThreads(t, got, report)
}
