// Command conns is the load side of bench/compare.sh: it holds N idle
// connections open (bash cannot) and runs a steady, light workload of point
// reads and updates at a fixed rate, and optionally busy connections that
// loop SELECT SLEEP(1) (so the processlist always has running rows to draw),
// until SIGINT or SIGTERM.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-sql-driver/mysql"
)

const tableRows = 10000

func main() {
	socket := flag.String("S", "", "server socket")
	user := flag.String("u", "root", "user for the idle connections and the workload")
	idle := flag.Int("n", 0, "idle connections to hold open")
	rate := flag.Int("rate", 100, "workload statements per second (0: none)")
	workers := flag.Int("workers", 4, "workload connections")
	busy := flag.Int("busy", 0, "of the idle connections, how many loop SELECT SLEEP(1)")
	flag.Parse()
	if *socket == "" {
		fmt.Fprintln(os.Stderr, "conns: -S SOCKET is required")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, *socket, *user, *idle, *rate, *workers, *busy); err != nil {
		fmt.Fprintln(os.Stderr, "conns:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, socket, user string, idle, rate, workers, busy int) error {
	cfg := mysql.NewConfig()
	cfg.User, cfg.Net, cfg.Addr = user, "unix", socket
	// One round trip per statement, not PREPARE + EXECUTE + CLOSE.
	cfg.InterpolateParams = true
	db, err := openDB(cfg, "")
	if err != nil {
		return err
	}
	defer db.Close()
	if err := prepareTable(ctx, db); err != nil {
		return err
	}
	cfg.DBName = "bench"
	bdb, err := openDB(cfg, "bench")
	if err != nil {
		return err
	}
	defer bdb.Close()
	held, err := holdIdle(ctx, bdb, idle)
	defer closeAll(held)
	if err != nil {
		return err
	}
	sleepers := sleepLoops(ctx, held[:min(busy, len(held))])
	fmt.Printf("ready idle=%d busy=%d rate=%d\n", len(held)-min(busy, len(held)), min(busy, len(held)), rate)
	var done atomic.Int64
	workload(ctx, bdb, rate, workers, &done)
	sleepers.Wait()
	fmt.Printf("stopped after %d workload statements\n", done.Load())
	return nil
}

func openDB(cfg *mysql.Config, name string) (*sql.DB, error) {
	c := cfg.Clone()
	c.DBName = name
	connector, err := mysql.NewConnector(c)
	if err != nil {
		return nil, err
	}
	db := sql.OpenDB(connector)
	db.SetMaxIdleConns(64)
	return db, nil
}

// prepareTable creates the workload's table once per server.
func prepareTable(ctx context.Context, db *sql.DB) error {
	stmts := []string{
		"CREATE DATABASE IF NOT EXISTS bench",
		"CREATE TABLE IF NOT EXISTS bench.t (id INT PRIMARY KEY, v INT NOT NULL, pad VARCHAR(100) NOT NULL) ENGINE=InnoDB",
		fmt.Sprintf("INSERT IGNORE INTO bench.t SELECT seq, 0, REPEAT('x', 100) FROM bench.seq_1_to_%d", tableRows),
	}
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("%s: %v", s[:30], err)
		}
	}
	return nil
}

// holdIdle opens n connections in parallel and keeps them checked out, so
// they sit in the server's processlist as Sleep.
func holdIdle(ctx context.Context, db *sql.DB, n int) ([]*sql.Conn, error) {
	held := make([]*sql.Conn, 0, n)
	var mu sync.Mutex
	var firstErr error
	next := make(chan struct{})
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range next {
				c, err := db.Conn(ctx)
				if err == nil {
					err = c.PingContext(ctx)
				}
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if c != nil {
					held = append(held, c)
				}
				mu.Unlock()
			}
		}()
	}
	for range n {
		next <- struct{}{}
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return held, fmt.Errorf("opening idle connections: %v", firstErr)
	}
	return held, nil
}

func closeAll(cs []*sql.Conn) {
	for _, c := range cs {
		c.Close()
	}
}

// workload sends rate statements per second across workers connections:
// four point reads to one single-row update.
func workload(ctx context.Context, db *sql.DB, rate, workers int, done *atomic.Int64) {
	if rate <= 0 {
		<-ctx.Done()
		return
	}
	per := time.Duration(int64(time.Second) * int64(workers) / int64(rate))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			worker(ctx, db, per, w, done)
		}()
	}
	wg.Wait()
}

func worker(ctx context.Context, db *sql.DB, per time.Duration, w int, done *atomic.Int64) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return
	}
	defer conn.Close()
	t := time.NewTicker(per)
	defer t.Stop()
	for i := w; ; i++ {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		id := rand.IntN(tableRows) + 1
		if i%5 == 0 {
			_, err = conn.ExecContext(ctx, "UPDATE t SET v = v + 1 WHERE id = ?", id)
		} else {
			var v int
			err = conn.QueryRowContext(ctx, "SELECT v FROM t WHERE id = ?", id).Scan(&v)
		}
		if err == nil {
			done.Add(1)
		}
	}
}
