package collectors

import (
	"context"
	"database/sql"
	"sync"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// holdIdleConns opens n connections to db and keeps them open, idle, until
// the test ends.
func holdIdleConns(t *testing.T, db *sql.DB, n int) {
	t.Helper()
	ctx := context.Background()
	conns := make(chan *sql.Conn, n)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	next := make(chan struct{})
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range next {
				c, err := db.Conn(ctx)
				if err == nil {
					err = c.PingContext(ctx)
					conns <- c
				}
				if err != nil {
					errs <- err
				}
			}
		}()
	}
	for range n {
		next <- struct{}{}
	}
	close(next)
	wg.Wait()
	close(conns)
	t.Cleanup(func() {
		for c := range conns {
			c.Close()
		}
	})
	select {
	case err := <-errs:
		t.Fatalf("opening %d idle connections: %v", n, err)
	default:
	}
}

// readFull reports whether the tick of s read the list in full.
func readFull(l *Live, s *snapshot.Snapshot) bool {
	return l.side.procs.cad.lastFull.Equal(s.Time)
}

// The budget is the same throughout: a handful of connections is read in
// full every tick; two thousand idle ones cost more than it, and the full
// read is then made less often, while a statement that starts running, a
// lock waiter and its idle holder still show on the next tick.
func TestLiveListCadenceOnlyWhenExpensive(t *testing.T) {
	// Serial: judges the list read's cost against a 2 ms budget.
	testdb.Heavy(t) // opens 2,000 connections
	srv := testdb.Start(t, "--max-connections=2100")
	srv.Exec(t,
		"CREATE DATABASE c",
		"CREATE TABLE c.t (id INT PRIMARY KEY, v INT) ENGINE=InnoDB",
		"INSERT INTO c.t VALUES (1, 0), (2, 0)")
	// 2 ms a second at a 400 ms tick: a read may cost 0.8 ms before it
	// is made less often. A few connections take a tenth of it; two
	// thousand take several times it.
	const budget = 2 * time.Millisecond
	l := newLive(t, rootOptions(srv), testInterval, func(o *LiveOptions) {
		o.ListBudget = budget
		o.NoThreadStats = true
	})

	for i := range 10 {
		s := next(t, l)
		if s.Collectors[snapshot.CollectorProcesslist].Stale {
			continue // the connecting tick
		}
		if !readFull(l, s) || s.ListCadence != nil {
			t.Fatalf("tick %d with %d threads: read in full %v, cadence %+v; want read every tick (a read took %v)",
				i, len(s.Processlist), readFull(l, s), s.ListCadence, l.side.procs.cad.cost())
		}
	}

	const idle = 2000
	pool := srv.DB(t)
	holdIdleConns(t, pool, idle)
	carried := 0
	var last *snapshot.Snapshot
	for i := 0; i < 40 && carried < 4; i++ {
		last = next(t, l)
		if readFull(l, last) {
			continue
		}
		carried++
		if !last.ListCadence.Carried(last.Time) {
			t.Fatalf("a carried tick's frame does not say so: %+v", last.ListCadence)
		}
		if n := len(last.Processlist); n < idle {
			t.Fatalf("a carried tick lists %d threads, want the %d idle ones", n, idle)
		}
	}
	if carried < 4 {
		t.Fatalf("%d idle connections: %d ticks carried the list, want 4 (a read took %v, every %v)",
			idle, carried, l.side.procs.cad.cost(), l.side.procs.cad.every())
	}
	t.Logf("%d idle: a read took %v, full every %v", idle, l.side.procs.cad.cost(), l.side.procs.cad.every())

	// A statement starts: the next tick's status shows it running, and
	// that tick reads the list in full.
	const q = "SELECT SLEEP(3)"
	go openDB(t, srv.DSN("")).Exec(q)
	seen := false
	for i := 0; i < 3 && !seen; i++ {
		s := next(t, l)
		if _, ok := threadRunning(s, q); ok {
			seen = true
			if !readFull(l, s) || s.ListCadence.Carried(s.Time) {
				t.Errorf("the running statement came from a carried list")
			}
		}
	}
	if !seen {
		t.Fatal("a running SELECT SLEEP(3) did not show within 3 ticks")
	}

	// An idle holder and its waiter: read in full every tick while the
	// waiter waits, the holder listed asleep.
	ctx := context.Background()
	holder, err := pool.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	var holderID int64
	if err := holder.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&holderID); err != nil {
		t.Fatal(err)
	}
	for _, st := range []string{"BEGIN", "UPDATE c.t SET v = v + 1 WHERE id = 1"} {
		if _, err := holder.ExecContext(ctx, st); err != nil {
			t.Fatal(err)
		}
	}
	const wait = "UPDATE c.t SET v = v + 2 WHERE id = 1"
	go openDB(t, srv.DSN("")).Exec(wait)
	waits := 0
	for i := 0; i < 12 && waits < 4; i++ {
		s := next(t, l)
		w, ok := threadRunning(s, wait)
		if !ok {
			continue
		}
		waits++
		if !readFull(l, s) {
			t.Fatalf("tick with a lock waiter (%+v) carried the list", w)
		}
		h := findProcess(s.Processlist, holderID)
		if h == nil || h.Command != "Sleep" {
			t.Fatalf("the idle holder %d is not listed asleep: %+v", holderID, h)
		}
	}
	if waits < 4 {
		t.Fatalf("the lock waiter showed on %d ticks, want 4", waits)
	}
	if _, err := holder.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
}

func findProcess(ps []snapshot.Process, id int64) *snapshot.Process {
	for i := range ps {
		if ps[i].ID == id {
			return &ps[i]
		}
	}
	return nil
}
