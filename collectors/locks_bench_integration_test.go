package collectors

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// lockPileup holds a row and queues waiters behind it, plus idle
// connections, on its own server; everything ends with the benchmark.
type lockPileup struct {
	srv    *testdb.Server
	db     *sql.DB
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func newLockPileup(b *testing.B, conns int, args ...string) *lockPileup {
	args = append([]string{fmt.Sprintf("--max-connections=%d", conns+50), "--innodb-lock-wait-timeout=900",
		"--plugin-load-add=metadata_lock_info"}, args...)
	srv := testdb.Start(b, args...)
	srv.Exec(b, "CREATE DATABASE shop", "CREATE TABLE shop.acct (id INT PRIMARY KEY, bal INT NOT NULL) ENGINE=InnoDB",
		"INSERT INTO shop.acct VALUES (1, 0), (2, 0)")
	db := openBenchDB(b, srv)
	ctx, cancel := context.WithCancel(context.Background())
	p := &lockPileup{srv: srv, db: db, ctx: ctx, cancel: cancel}
	b.Cleanup(func() { p.cancel(); p.wg.Wait() })
	return p
}

func openBenchDB(b *testing.B, srv *testdb.Server) *sql.DB {
	db, err := sql.Open("mysql", srv.DSN("")+"?timeout=30s")
	if err != nil {
		b.Fatal(err)
	}
	db.SetMaxIdleConns(0)
	b.Cleanup(func() { db.Close() })
	return db
}

// hold opens a transaction that keeps row 1 locked, idle.
func (p *lockPileup) hold(b *testing.B) {
	c, err := p.db.Conn(p.ctx)
	if err != nil {
		b.Fatal(err)
	}
	for _, q := range []string{"BEGIN", "UPDATE shop.acct SET bal = 1 WHERE id = 1"} {
		if _, err := c.ExecContext(p.ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	p.keep(func() { c.Close() })
}

// keep runs stop when the pile-up ends.
func (p *lockPileup) keep(stop func()) {
	p.wg.Add(1)
	go func() { defer p.wg.Done(); <-p.ctx.Done(); stop() }()
}

// waiters queues n sessions behind row 1 and waits until InnoDB counts them.
func (p *lockPileup) waiters(b *testing.B, n int) {
	for range n {
		c, err := p.db.Conn(p.ctx)
		if err != nil {
			b.Fatal(err)
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			c.ExecContext(p.ctx, "UPDATE shop.acct SET bal = 2 WHERE id = 1")
			c.Close()
		}()
	}
	deadline := time.Now().Add(120 * time.Second)
	for {
		var name, v string
		if err := p.db.QueryRow("SHOW GLOBAL STATUS LIKE 'Innodb_row_lock_current_waits'").Scan(&name, &v); err != nil {
			b.Fatal(err)
		}
		if got, _ := strconv.Atoi(v); got >= n {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("only %s of %d waiters queued", v, n)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// idle opens n connections that do nothing.
func (p *lockPileup) idle(b *testing.B, n int) {
	for range n {
		c, err := p.db.Conn(p.ctx)
		if err != nil {
			b.Fatal(err)
		}
		if err := c.PingContext(p.ctx); err != nil {
			b.Fatal(err)
		}
		p.keep(func() { c.Close() })
	}
}

// collectLocks measures one lock collection per op on a snapshot whose
// processlist and status were read once.
func collectLocks(b *testing.B, p *lockPileup) {
	ctx := context.Background()
	sess, _, err := openSession(ctx, openBenchDB(b, p.srv), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer sess.abandon()
	link := &serverLink{}
	link.setSession(sess)
	base := &snapshot.Snapshot{Collectors: map[snapshot.CollectorName]snapshot.CollectorState{}}
	for _, c := range []Collector{&status{link: link}, &processlist{link: link}, &innoDB{link: link}} {
		if err := c.Collect(ctx, base); err != nil {
			b.Fatal(err)
		}
	}
	budget := lockBudget(time.Second)
	if v := os.Getenv("MYTOP_LOCK_BUDGET"); v != "" {
		budget, _ = time.ParseDuration(v)
	}
	c := &locks{link: link, budget: budget}
	var s snapshot.Snapshot
	b.ResetTimer()
	for b.Loop() {
		s = snapshot.Snapshot{Processlist: base.Processlist, Status: base.Status, InnoDB: base.InnoDB}
		if err := c.Collect(ctx, &s); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	tr := infer.BuildLockTree(&s)
	if tr == nil || len(tr.Roots) == 0 {
		b.Fatalf("no tree: %d waits, notes %v", len(s.Locks.Waits), s.Locks.Notes)
	}
	b.ReportMetric(float64(tr.Roots[0].Waiters), "waiters")
	b.ReportMetric(float64(len(s.Locks.Waits)), "edges")
	b.ReportMetric(float64(len(base.Processlist)), "threads")
	b.Logf("root %d, %d waiters, %d edges, notes %v", tr.Roots[0].Thread, tr.Roots[0].Waiters, len(s.Locks.Waits),
		s.Locks.Notes)
}

// BenchmarkLocks1000RowWaiters: a hot row with 1,000 waiters (InnoDB lists
// ~500,000 waits for them, each request waiting for every one queued ahead).
func BenchmarkLocks1000RowWaiters(b *testing.B) {
	p := newLockPileup(b, 1000)
	p.hold(b)
	p.waiters(b, 1000)
	collectLocks(b, p)
}

// BenchmarkLocksIdleConnections: 10 row waiters, with and without 5,000 idle
// connections beside them (thread pool, as a server with that many runs).
func BenchmarkLocksIdleConnections(b *testing.B) {
	for _, idle := range []int{0, 5000} {
		b.Run(fmt.Sprintf("idle=%d", idle), func(b *testing.B) {
			p := newLockPileup(b, idle+10, "--thread-handling=pool-of-threads")
			p.idle(b, idle)
			p.hold(b)
			p.waiters(b, 10)
			collectLocks(b, p)
		})
	}
}

// BenchmarkLocksLockTableLimit: the longest queue still read from the lock
// tables (maxLockTableWaiters).
func BenchmarkLocksLockTableLimit(b *testing.B) {
	p := newLockPileup(b, maxLockTableWaiters)
	p.hold(b)
	p.waiters(b, maxLockTableWaiters)
	collectLocks(b, p)
}
