package collectors

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// TestDigestIntervalReadCostWith50kDigests measures what one interval's read
// of the digests costs with 50,000 digests in the table and 100 of them
// changed since the last read: on the server (the CPU of our connection's
// thread, /proc/<mysqld>/task/<TID>/schedstat, and of all of mysqld) and in
// the monitor (its own CPU). It takes a minute to fill the table, so it runs
// only with MYTOP_DIGEST_COST=1 (statements of ~30-byte text) or
// MYTOP_DIGEST_COST=long (~520-byte text, like an application's joins);
// bench/RESULTS.md has its figures.
func TestDigestIntervalReadCostWith50kDigests(t *testing.T) {
	// Serial: measures what one read costs the server, run by hand.
	mode := os.Getenv("MYTOP_DIGEST_COST")
	if mode == "" {
		t.Skip("set MYTOP_DIGEST_COST=1 (or =long) to measure (fills a table with 50,000 digests)")
	}
	const n = 50_000
	srv := testdb.Start(t, "--performance-schema=ON", fmt.Sprintf("--performance-schema-digests-size=%d", n+5000))
	db := openDB(t, srv.DSN(""))
	db.SetMaxOpenConns(4)
	start := time.Now()
	fill := fillDigests
	if mode == "long" {
		fill = fillLongDigests
	}
	fill(t, db, 0, n)
	t.Logf("made %d digests in %v", n, time.Since(start).Round(time.Second))
	// LAST_SEEN has whole seconds and the read keeps one of slack: let the
	// fill fall behind the cursor, as a steady server's old digests are.
	time.Sleep(2500 * time.Millisecond)

	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var tid int
	if err := conn.QueryRowContext(ctx, "SELECT TID FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()").Scan(&tid); err != nil {
		t.Fatal(err)
	}
	var st digestState
	cols := digestColumns{}
	s := &snapshot.Snapshot{Time: time.Now()}
	t0 := time.Now()
	if _, err := st.read(ctx, conn, &cols, s); err != nil {
		t.Fatal(err)
	}
	t.Logf("first (full) read of %d digests: %v in the monitor", len(st.prev), time.Since(t0).Round(time.Millisecond))
	if len(st.prev) < n {
		t.Fatalf("only %d digests in the table", len(st.prev))
	}
	time.Sleep(2500 * time.Millisecond)
	m := costMeter{t: t, pid: srv.PID, tid: tid}
	interval := func(int) {
		out, err := st.read(ctx, conn, &cols, &snapshot.Snapshot{Time: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		if out.Changed < 100 {
			t.Errorf("%d digests changed, want at least 100", out.Changed)
		}
		for _, d := range out.Digests {
			if d.Text == "" {
				t.Errorf("digest %s without text", d.Digest)
				break
			}
		}
	}
	same := func(int) { fill(t, db, 0, 100) }                              // the same 100 digests run again
	churn := func(round int) { fill(t, db, 100+round*100, 200+round*100) } // 100 others each time
	statement := func(q string) func(int) {
		return func(int) {
			if err := eachRow(ctx, conn, q, func([]string) {}, func([]sql.RawBytes) {}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for range 4 * quietReads { // learns the texts (the 100 digests', our own queries')
		same(0)
		interval(0)
	}
	steady := m.measure(same, interval)
	changing := m.measure(churn, interval)
	withText := m.measure(same, statement(digestQuery(false, &cols, st.cursor, true)))
	count := m.measure(same, statement("SELECT COUNT(*) FROM "+digestTable))
	full := m.measure(same, statement("SELECT * FROM "+digestTable))
	t.Logf("%s text, %d digests, 100 changed per read:", map[bool]string{true: "~520-byte", false: "short"}[mode == "long"], n)
	t.Logf("  interval read, the same 100 digests (text from the cache): %s", steady)
	t.Logf("  interval read, 100 new digests each time (text in the query): %s", changing)
	t.Logf("  the interval query with DIGEST_TEXT (before this change):   %s", withText)
	t.Logf("  SELECT COUNT(*) (the floor: every row is rendered):         %s", count)
	t.Logf("  SELECT * (the whole table with text, as a full poll reads): %s", full)
	if steady.monitorCPU >= 20*time.Millisecond {
		t.Errorf("the monitor spends %v of CPU per interval read, want < 20 ms", steady.monitorCPU)
	}
	if steady.threadCPU*10 > full.threadCPU*8 {
		t.Errorf("reading the changed rows costs the server %v, not clearly less than the whole table's %v",
			steady.threadCPU, full.threadCPU)
	}
}

// costMeter measures reads on one connection.
type costMeter struct {
	t        *testing.T
	pid, tid int
}

// measure runs prepare then read 10 times and averages, over the reads, the
// CPU of our connection's thread, of all of mysqld (/proc/PID/task/*/schedstat,
// ns) and of this process; CPU, unlike wall time, is not inflated by a
// loaded machine's queue.
func (m costMeter) measure(prepare, read func(round int)) readCost {
	m.t.Helper()
	const rounds = 10
	var c readCost
	for round := range rounds {
		prepare(round)
		t0, s0, m0, w0 := taskCPU(m.t, m.pid, m.tid), serverCPU(m.t, m.pid), selfCPU(), time.Now()
		read(round)
		c.threadCPU += taskCPU(m.t, m.pid, m.tid) - t0
		c.serverCPU += serverCPU(m.t, m.pid) - s0
		c.monitorCPU += selfCPU() - m0
		c.wall += time.Since(w0)
	}
	return readCost{c.threadCPU / rounds, c.serverCPU / rounds, c.monitorCPU / rounds, c.wall / rounds}
}

func taskCPU(t *testing.T, pid, tid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/schedstat", pid, tid))
	if err != nil {
		t.Skip("no /proc schedstat for the connection's thread")
	}
	var ns int64
	fmt.Sscan(string(b), &ns)
	return time.Duration(ns)
}

// readCost is the average cost of one read.
type readCost struct{ threadCPU, serverCPU, monitorCPU, wall time.Duration }

func (c readCost) String() string {
	return fmt.Sprintf("connection thread CPU %.1f ms (all mysqld %.1f ms), monitor CPU %.2f ms, wall %.1f ms",
		ms(c.threadCPU), ms(c.serverCPU), ms(c.monitorCPU), ms(c.wall))
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

func serverCPU(t *testing.T, pid int) time.Duration {
	t.Helper()
	files, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	var ns int64
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // a thread that ended
		}
		var v int64
		fmt.Sscan(string(b), &v)
		ns += v
	}
	if ns == 0 {
		t.Skip("no /proc schedstat for mysqld")
	}
	return time.Duration(ns)
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// fillDigests runs one distinct statement shape per i in [from, to): the
// alias is an identifier, so each is its own digest.
func fillDigests(t *testing.T, db *sql.DB, from, to int) {
	t.Helper()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := from + w; i < to; i += 4 {
				if _, err := db.Exec(fmt.Sprintf("SELECT %d AS digest_%d", i, i)); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// fillLongDigests is fillDigests with statements like an application's
// (a three-table join, ~520 bytes of digest text), each its own digest.
func fillLongDigests(t *testing.T, db *sql.DB, from, to int) {
	t.Helper()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := from + w; i < to; i += 4 {
				// The tables do not exist: the statement fails after parsing, and its digest counts.
				db.Exec(fmt.Sprintf("SELECT o.order_id, o.customer_id, o.status, o.created_at, o.updated_at, c.name, "+
					"c.email, c.country_%d, SUM(l.qty * l.price) AS total FROM shop.orders o "+
					"JOIN shop.customers c ON c.id = o.customer_id JOIN shop.lines l ON l.order_id = o.order_id "+
					"WHERE o.status IN (1, 2, 3) AND o.created_at > 20240101 AND c.country_%d = 7 "+
					"GROUP BY o.order_id ORDER BY o.created_at DESC LIMIT 50", i, i))
			}
		}()
	}
	wg.Wait()
}
