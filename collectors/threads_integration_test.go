package collectors

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// TestLiveThreadStatsFindsTheBurner runs one CPU-bound statement beside an
// idle connection and checks the whole path: mysqld found from its socket,
// connections mapped to OS threads, /proc read, and rates from snapshot.Delta.
func TestLiveThreadStatsFindsTheBurner(t *testing.T) {
	// Parallel: it waits for the heavy slot, which another package's heavy
	// test may hold for minutes, after this package's other tests.
	t.Parallel()
	testdb.Heavy(t) // burns a core and reads per-thread CPU
	srv := sharedServer(t)
	l := newLive(t, rootOptions(srv), time.Second, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const q = "SELECT BENCHMARK(2000000000, MD5('mytop-go burner'))"
	burner := openDB(t, srv.DSN(""))
	go burner.ExecContext(ctx, q)
	idle := openDB(t, srv.DSN(""))
	if err := idle.Ping(); err != nil {
		t.Fatal(err)
	}

	var prev *snapshot.Snapshot
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		s := next(t, l)
		if st := s.Collectors[snapshot.CollectorThreads]; st.Unavailable != "" || st.Stale {
			t.Fatalf("threads collector: %+v", st)
		}
		if s.Threads == nil || s.Threads.PID != srv.PID {
			t.Fatalf("threads %+v, want mysqld pid %d", s.Threads, srv.PID)
		}
		r := snapshot.Delta(prev, s)
		prev = s
		p, ok := threadRunning(s, q)
		if !ok || r == nil || r.Threads == nil {
			continue
		}
		if p.OSThread == 0 || p.MemoryBytes <= 0 {
			t.Fatalf("burner row not mapped: %+v", p)
		}
		got, ok := r.Threads.ForConn(p.ID)
		// A loaded 2-core machine shared with other tests gives the burner
		// a fraction of a core: the share is checked, not a figure.
		if !ok || got.CPU < 15 {
			continue // the first interval may start before the statement
		}
		if r.Threads.Process.CPU < got.CPU-2 {
			t.Errorf("mysqld %.0f %% below its connection's %.0f %%", r.Threads.Process.CPU, got.CPU)
		}
		for _, c := range r.Threads.Conns {
			if c.Conn != p.ID && c.CPU > 10 {
				t.Errorf("another connection burns %.0f %%: %+v", c.CPU, c)
			}
		}
		for _, b := range r.Threads.Background {
			if strings.TrimSpace(b.Name) == "" {
				t.Errorf("unnamed background group %+v", b)
			}
		}
		t.Logf("mysqld %.0f %%, burner %+v, background %+v", r.Threads.Process.CPU, got, r.Threads.Background)
		return
	}
	t.Fatal("the BENCHMARK connection never showed 15 % CPU")
}

// TestLiveThreadStatsNamesBackgroundThreads: with performance_schema on,
// MariaDB's background threads are named by their instruments, so the host
// panel can say "page cleaner" instead of "other".
func TestLiveThreadStatsNamesBackgroundThreads(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--performance-schema=ON")
	l := newLive(t, rootOptions(srv), testInterval, nil)
	awaitHealthy(t, l)
	s := next(t, l) // the background list is made on the first tick
	names := map[string]bool{}
	for _, c := range s.Threads.Tasks {
		if c.Conn == 0 {
			names[c.Name] = true
		}
	}
	t.Logf("background threads: %v", names)
	for _, want := range []string{"page cleaner", "main", "mytop-go"} {
		if !names[want] {
			t.Errorf("no background thread named %q in %v", want, names)
		}
	}
}
