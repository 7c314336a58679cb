package analyzers

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/collectors"
	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// memoryWatch samples srv with the host collector (mysqld's resident size),
// runs setup and then, in the background, doubles table with INSERT …
// SELECT from itself until it holds rows rows (or the table is full) once
// the monitor samples, and returns the first
// mysqld_memory_runaway finding within d, how long after the start it
// stood, and the resident sizes seen. The watch ends early 5 s after the
// growth does, so a slow machine may be given a long d at no cost to a fast one.
func memoryWatch(t *testing.T, srv *testdb.Server, d time.Duration, table string, rows int, setup ...string) (*snapshot.Finding, time.Duration, []uint64) {
	t.Helper()
	db := srv.DB(t)
	w := newWorkload(t)
	cfg := DefaultConfig()
	cfg.WarmupSeconds = 0
	var got *snapshot.Finding
	var after time.Duration
	var rss []uint64
	grown := make(chan time.Time, 1) // when the writer stopped
	var grownAt time.Time
	watch(t, srv, within(d), judged(cfg), withHost(&collectors.Host{}), until(func(f *snapshot.Frame) bool {
		if h := f.Snapshot.Host; h != nil && h.Mysqld != nil {
			rss = append(rss, h.Mysqld.RSSBytes>>20)
		}
		if w.began.IsZero() {
			s := w.session(db)
			s.exec(w, setup...)
			s.exec(w, "INSERT INTO "+table+" (v) SELECT REPEAT('y', 200) FROM seq.seq_1_to_50000")
			w.wg.Add(1)
			go func() {
				defer w.wg.Done()
				defer func() { grown <- time.Now() }()
				for n := 50000; n < rows && w.ctx.Err() == nil; n *= 2 {
					q := "INSERT INTO " + table + " (v) SELECT v FROM " + table
					if _, err := s.conn.ExecContext(w.ctx, q); err != nil {
						t.Logf("%s: %v", q, err) // the table is full: its growth ends
						return
					}
				}
			}()
			w.began = time.Now()
			return false
		}
		if got = findingIn(f, IDMysqldMemoryRunaway); got != nil {
			after = f.Snapshot.Time.Sub(w.began)
			return true
		}
		select {
		case grownAt = <-grown:
		default:
		}
		return !grownAt.IsZero() && f.Snapshot.Time.Sub(grownAt) >= 5*time.Second
	}))
	t.Logf("mysqld resident MB per sample: %v", rss)
	return got, after, rss
}

// A session filling a MEMORY table (max_heap_table_size 1.5 GB, so the
// machine's memory is spared) grows mysqld by hundreds of MB a second: named
// within 10 s, with the table and its writer.
func TestIntegrationMysqldMemoryRunaway(t *testing.T) {
	t.Parallel()
	testdb.Heavy(t)
	srv := testdb.Start(t)
	srv.Exec(t, "CREATE DATABASE app")
	f, after, rss := memoryWatch(t, srv, 30*time.Second, "app.mem", 1<<30,
		"SET SESSION max_heap_table_size = 1536 * 1024 * 1024",
		"CREATE TABLE app.mem (id INT PRIMARY KEY AUTO_INCREMENT, v VARCHAR(200)) ENGINE=MEMORY")
	// The rule warns when the memory left runs out within MemoryExhaustWarn
	// at the rate seen: a machine too loaded to grow mysqld that fast (the
	// table fills at the pace the CPUs allow) cannot show it.
	need := float64(memAvailableMB(t)) / DefaultConfig().MemoryExhaustWarn.Seconds()
	at, best := growthPassed(rss, need, int(after.Seconds()))
	t.Logf("growth needed %.0f MB/s; fastest over up to 5 s %.0f MB/s, held from %d s in to the naming", need, best, at)
	if f == nil && at < 0 {
		t.Skipf("mysqld grew %.0f MB/s at most, under the %.0f MB/s that exhaust this host's memory within %s: "+
			"the machine could not reproduce the runaway", best, need, DefaultConfig().MemoryExhaustWarn)
	}
	if f == nil {
		t.Fatalf("no %s", IDMysqldMemoryRunaway)
	}
	namedInTime(t, f, after-time.Duration(max(at, 0))*time.Second)
	mustContain(t, *f, "MEMORY table app.mem holds", "written by thread", "max_heap_table_size")
}

// growthPassed is the sample (one a second) from which mysqld's resident
// size kept growing need MB/s over the up to 5 s before each sample, 2 at
// least, up to the sample named (-1 if it never did), and the fastest such
// growth. On a loaded machine the table fills in spurts: a spurt that
// passes once and falls back is not the growth the rule judges, so the
// clock starts with the run of samples that lasted to the naming.
func growthPassed(rss []uint64, need float64, named int) (int, float64) {
	at, best := -1, 0.0
	for i := 2; i < len(rss); i++ {
		k := min(i, 5)
		rate := (float64(rss[i]) - float64(rss[i-k])) / float64(k)
		best = max(best, rate)
		switch {
		case rate < need && i <= named:
			at = -1
		case rate >= need && at < 0:
			at = i
		}
	}
	return at, best
}

// memAvailableMB is the machine's MemAvailable, what the rule counts as left.
func memAvailableMB(t *testing.T) uint64 {
	t.Helper()
	raw, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb >> 10
		}
	}
	t.Fatal("no MemAvailable in /proc/meminfo")
	return 0
}

// The twin: a 1 GB buffer pool filling with a new table's pages (some 700
// MB) grows mysqld by design, up to innodb_buffer_pool_size: quiet. It is
// watched until the table is full and 5 s more, up to a minute: CI's loaded
// host grew mysqld only 159 MB in the 17 s a fixed watch gave it.
func TestIntegrationBufferPoolWarmingIsQuiet(t *testing.T) {
	t.Parallel()
	testdb.Heavy(t)
	srv := testdb.Start(t, "--innodb-buffer-pool-size=1G", "--innodb-log-file-size=512M")
	srv.Exec(t, "CREATE DATABASE app")
	f, _, rss := memoryWatch(t, srv, time.Minute, "app.big", 3200000,
		"CREATE TABLE app.big (id INT PRIMARY KEY AUTO_INCREMENT, v VARCHAR(200))")
	if f != nil {
		t.Errorf("the pool warming raised %s: %s %v", f.ID, f.Title, f.Evidence)
	}
	if len(rss) < 10 || rss[len(rss)-1] < rss[0]+200 {
		t.Errorf("mysqld grew from %d to %d MB in %d samples: not the 200 MB or more the twin is about",
			rss[0], rss[len(rss)-1], len(rss))
	}
}
