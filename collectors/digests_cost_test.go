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
// changed since the last read: on the server (the digest row of our own
// query: its average timer) and in the monitor (the wall time of the read,
// which includes the server's). It takes a minute to fill the table, so it
// runs only with MYTOP_DIGEST_COST=1 (bench/RESULTS.md has its figures).
func TestDigestIntervalReadCostWith50kDigests(t *testing.T) {
	if os.Getenv("MYTOP_DIGEST_COST") == "" {
		t.Skip("set MYTOP_DIGEST_COST=1 to measure (fills a table with 50,000 digests)")
	}
	const n = 50_000
	srv := testdb.Start(t, "--performance-schema=ON", fmt.Sprintf("--performance-schema-digests-size=%d", n+5000))
	db := openDB(t, srv.DSN(""))
	db.SetMaxOpenConns(4)
	start := time.Now()
	fillDigests(t, db, 0, n)
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
	fill := func(round int) { fillDigests(t, db, round*100, round*100+100) } // 100 digests run again
	incr := measureReads(t, srv.PID, fill, func(round int) {
		out, err := st.read(ctx, conn, &cols, &snapshot.Snapshot{Time: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		if out.Changed < 100 {
			t.Errorf("round %d: %d digests changed, want at least 100", round, out.Changed)
		}
	})
	full := measureReads(t, srv.PID, fill, func(int) {
		var rows int
		err := eachRow(ctx, conn, "SELECT * FROM "+digestTable, func([]string) {}, func([]sql.RawBytes) { rows++ })
		if err != nil || rows < n {
			t.Fatalf("full read: %d rows, %v", rows, err)
		}
	})
	t.Logf("one interval read with %d digests, 100 changed: %s", n, incr)
	t.Logf("reading the whole table instead (SELECT *):  %s", full)
	if incr.monitorCPU >= 20*time.Millisecond {
		t.Errorf("the monitor spends %v of CPU per interval read, want < 20 ms", incr.monitorCPU)
	}
	if incr.serverCPU*10 > full.serverCPU*8 {
		t.Errorf("reading the changed rows costs the server %v, not clearly less than the whole table's %v",
			incr.serverCPU, full.serverCPU)
	}
}

// readCost is the average cost of one read.
type readCost struct{ serverCPU, monitorCPU, wall time.Duration }

func (c readCost) String() string {
	return fmt.Sprintf("server CPU %.1f ms, monitor CPU %.2f ms, wall %.1f ms", ms(c.serverCPU), ms(c.monitorCPU), ms(c.wall))
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// measureReads runs prepare then read 10 times and averages, over the reads, the CPU mysqld (all its
// threads, /proc/PID/task/*/schedstat, ns) and this process spent in them;
// CPU, unlike wall time, is not inflated by a loaded machine's queue.
func measureReads(t *testing.T, pid int, prepare, read func(round int)) readCost {
	t.Helper()
	const rounds = 10
	var c readCost
	for round := range rounds {
		prepare(round)
		s0, m0, w0 := serverCPU(t, pid), selfCPU(), time.Now()
		read(round)
		c.serverCPU += serverCPU(t, pid) - s0
		c.monitorCPU += selfCPU() - m0
		c.wall += time.Since(w0)
	}
	return readCost{c.serverCPU / rounds, c.monitorCPU / rounds, c.wall / rounds}
}

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
