package analyzers

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// Integration proof of read_ahead_evicted on a throwaway MariaDB 10.11, with
// its healthy twin.
//
// Two traps of 10.11 met on the way (storage/innobase/buf/buf0rea.cc and
// buf0lru.cc of MariaDB 10.6+):
//   - innodb_read_ahead_threshold=0 does not make linear read-ahead eager: it
//     switches it off (buf_read_ahead_linear returns at once when the
//     threshold is 0). An earlier attempt with 0 read nothing ahead at all.
//   - Innodb_buffer_pool_read_ahead_evicted counts only the pages a user
//     thread's own LRU scan evicts unread (buf_LRU_free_from_common_LRU_list);
//     the page cleaner's LRU batch, which keeps the free list filled and does
//     most evictions when it keeps up, evicts unread read-ahead pages without
//     counting them. Short range scans with threshold 8 read 100-200 pages
//     ahead a second, nearly all never used, and the counter stayed at 0
//     while the free list held 40-90 pages.
// So the reproduction also keeps the page cleaner busy writing (random
// updates, innodb_io_capacity=100, as in TestIntegrationBufferPoolWaitFree)
// and asks it to keep few pages free (innodb_lru_scan_depth=100): the free
// list runs dry and the readers evict for themselves. Without the last two,
// the counter moved in bursts: named after 5 s in two runs of five, after
// 33 s and 58 s in two, not within 60 s in one.

// readAheadTables makes shop.s1 … shop.sN, rows rows of 200 bytes each
// (about 60 rows a 16K page), loaded holding the heavy slot.
func readAheadTables(t *testing.T, srv *testdb.Server, n, rows int) {
	stmts := []string{"CREATE DATABASE shop", "CREATE DATABASE seq"}
	for i := 1; i <= n; i++ {
		stmts = append(stmts, fmt.Sprintf("CREATE TABLE shop.s%d (id INT PRIMARY KEY, pad CHAR(200) NOT NULL) ENGINE=InnoDB", i),
			fmt.Sprintf("INSERT INTO shop.s%d SELECT seq, REPEAT('a', 200) FROM seq.seq_1_to_%d", i, rows))
	}
	srv.ExecHeavy(t, stmts...)
}

// fullScans runs one client per table, each scanning its table whole again
// and again.
func fullScans(w *workload, srv *testdb.Server, n int) {
	db := srv.DB(w.t)
	for i := 1; i <= n; i++ {
		w.clients(db, 1, 0, func(*rand.Rand) string {
			return fmt.Sprintf("SELECT SUM(LENGTH(pad)) FROM shop.s%d", i)
		})
	}
}

// rangeScans runs n clients each reading span rows of a random table from a
// random place: three or four pages, and when they touch the last page of a
// read-ahead area, InnoDB reads the whole next area for a scan that stops.
func rangeScans(w *workload, srv *testdb.Server, n, tables, rows, span int) {
	w.clients(srv.DB(w.t), n, 0, func(r *rand.Rand) string {
		from := 1 + r.IntN(rows-span)
		return fmt.Sprintf("SELECT SUM(LENGTH(pad)) FROM shop.s%d WHERE id BETWEEN %d AND %d", 1+r.IntN(tables), from, from+span)
	})
}

// logReadAhead logs each frame's read-ahead counters.
func logReadAhead(t *testing.T, frames []*snapshot.Frame) {
	t.Helper()
	for _, f := range frames {
		if f.Rates == nil {
			continue
		}
		ra, _ := f.Rates.Rate(raPages)
		ev, _ := f.Rates.Rate(raEvicted)
		rd, _ := f.Rates.Rate("Innodb_buffer_pool_reads")
		var ids []string
		for _, x := range f.Findings {
			ids = append(ids, x.ID+"/"+x.Severity.String())
		}
		t.Logf("frame %d: read ahead %.0f pages/s, evicted unused %.0f/s, pool reads %.0f/s, free pages %s; %s",
			f.Seq, ra, ev, rd, f.Snapshot.Status["Innodb_buffer_pool_pages_free"], strings.Join(ids, " "))
	}
}

func TestIntegrationReadAheadEvicted(t *testing.T) {
	t.Parallel()
	// The smallest pool 10.11 allows (6M: "innodb_page_size=16384 requires
	// innodb_buffer_pool_size >= 6 MiB"), read-ahead made eager (8 of 64),
	// and a page cleaner told the disk does 100 IOPS and asked to keep only
	// 100 pages free, so the readers run out of free pages and evict.
	srv := testdb.Start(t, "--innodb-buffer-pool-size=6M", "--innodb-read-ahead-threshold=8",
		"--innodb-io-capacity=100", "--innodb-io-capacity-max=100", "--innodb-lru-scan-depth=100")
	testdb.Heavy(t) // 8 readers and 4 writers flat out, a bulk load
	const tables, rows = 4, 100000
	readAheadTables(t, srv, tables, rows)
	// The writes run first, until most of the pool is dirty: the page
	// cleaner is then behind for good, and the onset measured is the scans'.
	// Started together, the cleaner kept the free list at 120-320 pages for
	// 50 s in one run of three, and nothing was counted until it fell behind.
	writes := newWorkload(t)
	writes.clients(srv.DB(t), 4, 0, func(r *rand.Rand) string {
		return fmt.Sprintf("UPDATE shop.s%d SET pad = REPEAT('b', 200) WHERE id = %d", 1+r.IntN(tables), 1+r.IntN(rows))
	})
	db := srv.DB(t)
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		var name string
		var dirty, total float64
		if err := db.QueryRow("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'").Scan(&name, &dirty); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRow("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_total'").Scan(&name, &total); err != nil {
			t.Fatal(err)
		}
		if dirty >= total/2 {
			t.Logf("%.0f of %.0f pool pages dirty", dirty, total)
			break
		}
	}
	w := newWorkload(t)
	c := noWarmup(DefaultConfig())
	var got *snapshot.Finding
	var named time.Time
	var waste wasteOnset
	frames := watch(t, srv, within(60*time.Second), judged(c), until(func(f *snapshot.Frame) bool {
		logReadAhead(t, []*snapshot.Frame{f})
		if !w.startWhenWarm(f, c, func() { rangeScans(w, srv, 8, tables, rows, 200) }) {
			return false
		}
		waste.observe(f, c)
		got, named = idFinding(IDReadAheadEvicted, snapshot.Warning)(f), f.Snapshot.Time
		return got != nil
	})).frames
	if got == nil {
		t.Fatalf("no read_ahead_evicted warning in %d frames (the waste held from %v)", len(frames), waste.at)
	}
	t.Logf("read_ahead_evicted/%s stood %.1f s after the workload started:\n%s", got.Severity, named.Sub(w.began).Seconds(), findingText(got))
	if waste.at.IsZero() {
		t.Logf("named before the waste held two frames in a row by the test's reckoning")
	} else if after := named.Sub(waste.at); after > 10*time.Second {
		t.Errorf("named %.1f s after the waste held (%.1f s after the workload started), want within 10 s",
			after.Seconds(), waste.at.Sub(w.began).Seconds())
	}
	wantEvidence(t, got, "pages read ahead over the last", "were evicted before any use", raEvicted,
		"innodb_read_ahead_threshold=8", "innodb_buffer_pool_size=6", "from 8 towards 64")
}

// wasteOnset is when the read-ahead waste the rule judges was there: over
// the last ReadAheadWindow of frames, at least ReadAheadMinPages read ahead
// and ReadAheadEvictedWarn % of them evicted unused, for the second frame in
// a row. On a machine that starves the scanners the read-ahead comes in
// bursts (14-32 pages a second, not 100-200), the waste holds for a second
// and goes, and the rule rightly waits for it to hold: the onset is the
// waste's, not the workload's.
type wasteOnset struct {
	ra, ev []float64 // per frame since the workload started
	held   int       // frames in a row the waste held
	at     time.Time
}

func (o *wasteOnset) observe(f *snapshot.Frame, c Config) {
	if f.Rates == nil || !o.at.IsZero() {
		return
	}
	ra, _ := f.Rates.Rate(raPages)
	ev, _ := f.Rates.Rate(raEvicted)
	secs := f.Rates.Interval
	o.ra, o.ev = append(o.ra, ra*secs), append(o.ev, ev*secs)
	n := max(0, len(o.ra)-int(c.ReadAheadWindow/time.Second))
	var pages, evicted float64
	for i := n; i < len(o.ra); i++ {
		pages, evicted = pages+o.ra[i], evicted+o.ev[i]
	}
	if pages >= c.ReadAheadMinPages && 100*evicted >= c.ReadAheadEvictedWarn*pages {
		o.held++
	} else {
		o.held = 0
	}
	if o.held == 2 {
		o.at = f.Snapshot.Time
	}
}

func TestIntegrationReadAheadUsedIsHealthy(t *testing.T) {
	t.Parallel()
	// The default threshold (56) and a pool of 64M: the same tables, each
	// scanned whole by its own client. The scans outgrow the pool, so InnoDB
	// reads ahead all the time, and each scan reads what was read ahead for it.
	srv := testdb.Start(t, "--innodb-buffer-pool-size=64M")
	testdb.Heavy(t) // 4 scans flat out, a bulk load
	const tables, rows = 4, 100000
	readAheadTables(t, srv, tables, rows)
	w := newWorkload(t)
	frames := watch(t, srv, judged(heavyTwin()), load(w, func() { fullScans(w, srv, tables) }),
		runFor(20*time.Second)).frames
	logReadAhead(t, frames)
	// The scans outgrow the pool on purpose (read-ahead only works for
	// pages not in it), and buffer_pool_miss rightly names that: 20,000-48,000
	// pool reads a second. This twin is about what was read ahead.
	quietBut(t, withoutRule(frames, IDBufferPoolMiss), IDReadAheadEvicted)
	ra := meanRate(frames, raPages, len(frames)-15)
	ev := meanRate(frames, raEvicted, len(frames)-15)
	t.Logf("healthy: %.0f pages/s read ahead, %.0f/s evicted unused", ra, ev)
	if ra < 64 {
		t.Errorf("only %.0f pages/s read ahead: the twin did not exercise read-ahead", ra)
	}
}

// withoutRule returns frames without the findings of rule id.
func withoutRule(frames []*snapshot.Frame, id string) []*snapshot.Frame {
	out := make([]*snapshot.Frame, len(frames))
	for i, f := range frames {
		c := *f
		c.Findings = nil
		for _, x := range f.Findings {
			if x.ID != id {
				c.Findings = append(c.Findings, x)
			}
		}
		out[i] = &c
	}
	return out
}
