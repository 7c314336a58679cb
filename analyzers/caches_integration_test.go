package analyzers

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// Integration proofs of the cache and limit rules of the monthly-incident reproductions on a throwaway
// MariaDB 10.11, each with a healthy twin. Each logs its time to detection.

// manyTables makes bench.t1 … bench.tN, one row each.
func manyTables(t *testing.T, srv *testdb.Server, n int, engine string) {
	t.Helper()
	stmts := []string{"CREATE DATABASE bench"}
	for i := 1; i <= n; i++ {
		stmts = append(stmts, fmt.Sprintf("CREATE TABLE bench.t%d (id INT PRIMARY KEY, v INT) ENGINE=%s", i, engine),
			fmt.Sprintf("INSERT INTO bench.t%d VALUES (1, %d)", i, i))
	}
	srv.Exec(t, stmts...)
}

// tableReads runs clients reading one row of a random table among n.
func tableReads(w *workload, srv *testdb.Server, clients, n int) {
	db := srv.DB(w.t)
	db.SetMaxOpenConns(clients)
	w.clients(db, clients, 0, func(r *rand.Rand) string {
		return fmt.Sprintf("SELECT v FROM bench.t%d WHERE id = 1", 1+r.IntN(n))
	})
}

func TestIntegrationTableCacheThrash(t *testing.T) {
	t.Parallel()
	// The monthly-incident reproductions's reproduction: table_open_cache far too small for 300 tables.
	testdb.Heavy(t)
	srv := testdb.Start(t, "--table-open-cache=10")
	manyTables(t, srv, 300, "InnoDB")
	w := newWorkload(t)
	_, got, after := watch(t, srv, within(60*time.Second), judged(noWarmup(DefaultConfig())),
		load(w, func() { tableReads(w, srv, 4, 300) }), onset(idFinding(IDTableCacheThrash, snapshot.Warning))).result()
	t.Logf("table_cache_thrash after %.1f s", after.Seconds())
	if after > 10*time.Second {
		t.Errorf("named %.1f s after onset, want within 10 s", after.Seconds())
	}
	wantEvidence(t, got, "table opens/s", "hit rate", "Table_open_cache_overflows", "of table_open_cache 10",
		"Raise table_open_cache from 10")
}

func TestIntegrationWarmTableCacheIsHealthy(t *testing.T) {
	t.Parallel()
	// A 64M pool: on testdb's 16M one the page cleaner's free reserve leaves
	// room for ~250 of the 300 tables' pages, and buffer_pool_miss rightly
	// names it (TestIntegrationBufferPoolScanDepthReserve).
	srv := testdb.Start(t, "--innodb-buffer-pool-size=64M")
	// Made before the slot is taken: 600 small statements that mostly wait
	// on their commits' fsyncs (4-11 s of the slot's hold otherwise), and
	// the twin judges without the warm-up anyway.
	manyTables(t, srv, 300, "InnoDB")
	// Every table opened once: the cache is warm before the monitor looks.
	for i := 1; i <= 300; i++ {
		srv.Exec(t, fmt.Sprintf("SELECT v FROM bench.t%d WHERE id = 1", i))
	}
	testdb.Heavy(t) // 4 clients flat out
	w := newWorkload(t)
	frames := watch(t, srv, judged(heavyTwin()), load(w, func() { tableReads(w, srv, 4, 300) }),
		runFor(20*time.Second)).frames
	quietBut(t, dropWarmUp(frames), IDTableCacheThrash)
	hits, _ := frames[len(frames)-1].Rates.Rate(tcHits)
	t.Logf("Table_open_cache_hits %.0f/s at the end", hits)
	if hits < 100 {
		t.Errorf("only %.0f table cache hits/s: the server was not busy", hits)
	}
}

// leakPrepares prepares a new named statement on one session every pause and
// never deallocates it, as a leaking application does; with dealloc it
// deallocates each at once. It records the first error 1461 in failed.
func leakPrepares(w *workload, srv *testdb.Server, pause time.Duration, dealloc bool, failed chan<- error) {
	db := srv.DB(w.t)
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		conn, err := db.Conn(w.ctx)
		if err != nil {
			w.t.Logf("conn: %v", err)
			return
		}
		defer conn.Close()
		for i := 0; w.ctx.Err() == nil; i++ {
			_, err := conn.ExecContext(w.ctx, fmt.Sprintf("PREPARE s%d FROM 'SELECT ? + 1'", i))
			var me *mysql.MySQLError
			if errors.As(err, &me) && me.Number == 1461 {
				select {
				case failed <- err:
				default:
				}
			} else if err == nil && dealloc {
				_, err = conn.ExecContext(w.ctx, fmt.Sprintf("DEALLOCATE PREPARE s%d", i))
			}
			if err != nil && w.ctx.Err() == nil && (me == nil || me.Number != 1461) {
				w.t.Logf("prepare: %v", err)
			}
			time.Sleep(pause)
		}
	}()
}

func TestIntegrationPreparedStmtLimit(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--max-prepared-stmt-count=200", "--performance-schema=ON")
	w := newWorkload(t)
	failed := make(chan error, 1)
	_, got, after := watch(t, srv, within(60*time.Second),
		load(w, func() { leakPrepares(w, srv, 20*time.Millisecond, false, failed) }),
		onset(idFinding(IDPreparedStmtLimit, snapshot.Critical))).result()
	select {
	case err := <-failed:
		t.Logf("the server refuses new PREPAREs: %v", err)
	default:
		t.Error("no PREPARE failed with error 1461")
	}
	t.Logf("prepared_stmt_limit (critical) after %.1f s", after.Seconds())
	wantEvidence(t, got, "max_prepared_stmt_count (200) reached", "error 1461", "Prepared_stmt_count 200 of",
		"left open", "root@localhost holds 200 prepared statements, e.g. select ? + ?", "DEALLOCATE PREPARE")
	if len(got.Threads) != 1 {
		t.Errorf("threads %v, want the leaking session", got.Threads)
	}
}

func TestIntegrationPreparedStmtClosedIsHealthy(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--max-prepared-stmt-count=200")
	w := newWorkload(t)
	failed := make(chan error, 1)
	frames := watch(t, srv, load(w, func() { leakPrepares(w, srv, 5*time.Millisecond, true, failed) }),
		runFor(20*time.Second)).frames
	quietBut(t, dropWarmUp(frames), IDPreparedStmtLimit)
	prep, _ := frames[len(frames)-1].Rates.Rate(psPrepare)
	t.Logf("Com_stmt_prepare %.0f/s at the end", prep)
	if prep < 20 {
		t.Errorf("only %.0f prepares/s", prep)
	}
}

// churn runs clients that each open a new connection for every statement.
func churn(w *workload, srv *testdb.Server, clients int) {
	db := srv.DB(w.t)
	db.SetMaxIdleConns(0) // every query logs in afresh, as a per-request connector does
	db.SetMaxOpenConns(clients)
	w.clients(db, clients, 0, func(*rand.Rand) string { return "SELECT 1" })
}

func TestIntegrationThreadCacheMiss(t *testing.T) {
	t.Parallel()
	testdb.Heavy(t)
	srv := testdb.Start(t, "--thread-cache-size=0")
	w := newWorkload(t)
	_, got, after := watch(t, srv, within(60*time.Second), judged(noWarmup(DefaultConfig())),
		load(w, func() { churn(w, srv, 3) }), onset(idFinding(IDThreadCacheMiss, snapshot.Warning))).result()
	t.Logf("thread_cache_miss after %.1f s", after.Seconds())
	if after > 10*time.Second {
		t.Errorf("named %.1f s after onset, want within 10 s", after.Seconds())
	}
	wantEvidence(t, got, "new threads/s", "thread_cache_size=0", "Threads_created", "SET GLOBAL thread_cache_size")
}

func TestIntegrationThreadCacheHitsAreHealthy(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t)
	w := newWorkload(t)
	frames := watch(t, srv, load(w, func() { churn(w, srv, 3) }), runFor(20*time.Second)).frames
	quietBut(t, dropWarmUp(frames), IDThreadCacheMiss)
	conns, _ := frames[len(frames)-1].Rates.Rate("Connections")
	t.Logf("Connections %.0f/s at the end", conns)
	if conns < 20 {
		t.Errorf("only %.0f connections/s", conns)
	}
}

// openAll opens every table of bench with a session each holding them in a
// LOCK TABLES, so their files stay open.
func openAll(t *testing.T, srv *testdb.Server, n int) *sql.Conn {
	t.Helper()
	conn, err := srv.DB(t).Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for i := 1; i <= n; i++ {
		names = append(names, fmt.Sprintf("bench.t%d READ", i))
	}
	if _, err := conn.ExecContext(context.Background(), "LOCK TABLES "+strings.Join(names, ", ")); err != nil {
		t.Fatal(err)
	}
	return conn
}

func TestIntegrationOpenFilesNearLimit(t *testing.T) {
	t.Parallel()
	testdb.Heavy(t)
	// A low open_files_limit, and a session that holds 80 MyISAM tables
	// open (two files each) under LOCK TABLES, as a report or dump does. The
	// server raises open_files_limit to what its table cache could need
	// (table_open_cache × 2 × instances, plus connections), so the cache is
	// kept small for the limit to stay at 200.
	srv := testdb.Start(t, "--open-files-limit=200", "--max-connections=20", "--table-open-cache=10",
		"--table-open-cache-instances=1")
	manyTables(t, srv, 100, "MyISAM")
	for _, v := range []string{"open_files_limit", "table_open_cache", "max_connections"} {
		var name, val string
		if err := srv.DB(t).QueryRow("SHOW GLOBAL VARIABLES LIKE '"+v+"'").Scan(&name, &val); err == nil {
			t.Logf("%s=%s", name, val)
		}
	}
	w := newWorkload(t)
	var conn *sql.Conn
	defer func() {
		if conn != nil {
			conn.Close()
		}
	}()
	_, got, after := watch(t, srv, within(60*time.Second), judged(noWarmup(DefaultConfig())),
		load(w, func() { conn = openAll(t, srv, 80) }),
		onset(idFinding(IDOpenFilesNearLimit, snapshot.Warning))).result()
	t.Logf("open_files_near_limit after %.1f s", after.Seconds())
	if after > 10*time.Second {
		t.Errorf("named %.1f s after onset, want within 10 s", after.Seconds())
	}
	wantEvidence(t, got, "of open_files_limit", "Open_files", "Raise open_files_limit", "LimitNOFILE")
}

func TestIntegrationOpenFilesRoomIsHealthy(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t)
	manyTables(t, srv, 100, "MyISAM")
	w := newWorkload(t)
	var conn *sql.Conn
	defer func() {
		if conn != nil {
			conn.Close()
		}
	}()
	frames := watch(t, srv, load(w, func() {
		conn = openAll(t, srv, 80)
		tableReads(w, srv, 2, 100)
	}), runFor(15*time.Second)).frames
	quietBut(t, dropWarmUp(frames), IDOpenFilesNearLimit)
	last := frames[len(frames)-1].Snapshot
	t.Logf("Open_files %s of open_files_limit %s", last.Status["Open_files"], last.Variables["open_files_limit"])
}

// binlogInserts runs clients committing INSERTs of rows rows of 200 bytes each.
func binlogInserts(w *workload, srv *testdb.Server, clients, rows int) {
	srv.Exec(w.t, "CREATE DATABASE IF NOT EXISTS shop",
		"CREATE TABLE IF NOT EXISTS shop.events (id INT AUTO_INCREMENT PRIMARY KEY, pad CHAR(200)) ENGINE=InnoDB")
	db := srv.DB(w.t)
	db.SetMaxOpenConns(clients)
	q := fmt.Sprintf("INSERT INTO shop.events (pad) SELECT REPEAT('x', 200) FROM seq.seq_1_to_%d", rows)
	w.clients(db, clients, 20*time.Millisecond, func(*rand.Rand) string { return q })
}

func TestIntegrationBinlogCacheSpill(t *testing.T) {
	t.Parallel()
	// Transactions of 100 rows (~20 KB of row events) through a 4K cache.
	srv := testdb.Start(t, "--log-bin", "--binlog-format=ROW", "--binlog-cache-size=4096")
	w := newWorkload(t)
	_, got, after := watch(t, srv, within(60*time.Second), load(w, func() { binlogInserts(w, srv, 2, 100) }),
		onset(idFinding(IDBinlogCacheSpill, snapshot.Warning))).result()
	t.Logf("binlog_cache_spill after %.1f s", after.Seconds())
	if after > 10*time.Second {
		t.Errorf("named %.1f s after onset, want within 10 s", after.Seconds())
	}
	wantEvidence(t, got, "Binlog_cache_disk_use", "binlog_cache_size=4K", "from 4K to 16K")
}

func TestIntegrationBinlogCacheFitsIsHealthy(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--log-bin", "--binlog-format=ROW", "--binlog-cache-size=4096")
	w := newWorkload(t)
	// Single-row transactions fit the same 4K cache.
	frames := watch(t, srv, load(w, func() { binlogInserts(w, srv, 2, 1) }), runFor(20*time.Second)).frames
	quietBut(t, dropWarmUp(frames), IDBinlogCacheSpill)
	use, _ := frames[len(frames)-1].Rates.Rate(blCacheUse)
	t.Logf("Binlog_cache_use %.0f/s at the end", use)
	if use < 10 {
		t.Errorf("only %.0f transactions/s used the binlog cache", use)
	}
}
