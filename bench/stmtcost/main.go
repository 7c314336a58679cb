// Command stmtcost prices single statements on a MariaDB started with
// --userstat=1: each statement is sent rounds times from a user of its own,
// gap apart (a monitor's statement reaches a server whose caches moved on
// since its last read a second ago; back to back they are cheaper), and the
// server's BUSY_TIME and CPU_TIME for that user (USER_STATISTICS) are divided
// by the calls, beside the client's own time per call. bench/compare.sh's
// stmtcost sends its statements back to back instead.
//
//	stmtcost -S SOCKET [-rounds 20] [-gap 1s] [-f FILE]
//
// FILE holds one statement a line; without it the sampling statements of
// mytop-go and innotop and the cheaper candidates are priced.
package main

import (
	"bufio"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

var defaults = []string{
	"SHOW GLOBAL STATUS",
	"SHOW GLOBAL STATUS LIKE 'Threads\\_%'",
	"SHOW GLOBAL STATUS LIKE 'Uptime'",
	"SHOW GLOBAL STATUS LIKE 'Com\\_select'",
	"SHOW FULL PROCESSLIST",
	"SHOW PROCESSLIST",
	"SELECT ID, USER, HOST, DB, COMMAND, TIME, STATE, INFO, TIME_MS, EXAMINED_ROWS FROM information_schema.PROCESSLIST",
	"SELECT ID, USER, HOST, DB, COMMAND, TIME, STATE, INFO, TIME_MS, EXAMINED_ROWS FROM information_schema.PROCESSLIST WHERE COMMAND <> 'Sleep'",
	"SELECT ID, USER, HOST, DB, COMMAND, TIME, STATE, TIME_MS FROM information_schema.PROCESSLIST WHERE COMMAND <> 'Sleep'",
	"SELECT COUNT(*) FROM information_schema.PROCESSLIST",
	"SELECT trx_mysql_thread_id, trx_started, trx_state FROM information_schema.INNODB_TRX",
	"SHOW ENGINE INNODB STATUS",
}

func main() {
	socket := flag.String("S", "", "server socket (root, no password)")
	rounds := flag.Int("rounds", 20, "calls of each statement")
	gap := flag.Duration("gap", time.Second, "time between two calls of a statement")
	file := flag.String("f", "", "file of statements, one a line (default: the built-in list)")
	flag.Parse()
	if *socket == "" {
		fmt.Fprintln(os.Stderr, "stmtcost: -S SOCKET is required")
		os.Exit(2)
	}
	stmts := defaults
	if *file != "" {
		var err error
		if stmts, err = readLines(*file); err != nil {
			fmt.Fprintln(os.Stderr, "stmtcost:", err)
			os.Exit(1)
		}
	}
	if err := run(*socket, stmts, *rounds, *gap); err != nil {
		fmt.Fprintln(os.Stderr, "stmtcost:", err)
		os.Exit(1)
	}
}

func readLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out, sc.Err()
}

func open(socket, user string) (*sql.DB, error) {
	cfg := mysql.NewConfig()
	cfg.User, cfg.Net, cfg.Addr = user, "unix", socket
	c, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, err
	}
	db := sql.OpenDB(c)
	db.SetMaxOpenConns(1)
	return db, nil
}

func run(socket string, stmts []string, rounds int, gap time.Duration) error {
	ctx := context.Background()
	root, err := open(socket, "root")
	if err != nil {
		return err
	}
	defer root.Close()
	var on string
	if err := root.QueryRowContext(ctx, "SELECT @@userstat").Scan(&on); err != nil || on != "1" {
		return fmt.Errorf("the server needs --userstat=1 (@@userstat: %q, %v)", on, err)
	}
	fmt.Printf("# %s  %d calls each, %v apart\n", time.Now().UTC().Format(time.RFC3339), rounds, gap)
	fmt.Printf("%9s %9s %9s %9s %7s  %s\n", "busy ms", "cpu ms", "client50", "client90", "rows", "statement")
	for i, st := range stmts {
		user := fmt.Sprintf("stmtcost_%d", i)
		if _, err := root.ExecContext(ctx, fmt.Sprintf("CREATE USER IF NOT EXISTS '%s'@'localhost'", user)); err != nil {
			return err
		}
		if _, err := root.ExecContext(ctx, fmt.Sprintf("GRANT ALL ON *.* TO '%s'@'localhost'", user)); err != nil {
			return err
		}
		if err := price(ctx, root, socket, user, st, rounds, gap); err != nil {
			return fmt.Errorf("%s: %v", st, err)
		}
	}
	return nil
}

// price sends st rounds times as user and prints its cost per call.
func price(ctx context.Context, root *sql.DB, socket, user, st string, rounds int, gap time.Duration) error {
	db, err := open(socket, user)
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	busy0, cpu0, err := spent(ctx, root, user)
	if err != nil {
		return err
	}
	var took []time.Duration
	rows := 0
	next := time.Now()
	for range rounds {
		time.Sleep(time.Until(next))
		next = next.Add(gap)
		start := time.Now()
		n, err := drain(ctx, conn, st)
		if err != nil {
			return err
		}
		took = append(took, time.Since(start))
		rows = n
	}
	busy1, cpu1, err := spent(ctx, root, user)
	if err != nil {
		return err
	}
	slices.Sort(took)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	fmt.Printf("%9.2f %9.2f %9.2f %9.2f %7d  %s\n", (busy1-busy0)*1000/float64(rounds), (cpu1-cpu0)*1000/float64(rounds),
		ms(took[len(took)/2]), ms(took[len(took)*9/10]), rows, st)
	return nil
}

func drain(ctx context.Context, conn *sql.Conn, st string) (int, error) {
	rs, err := conn.QueryContext(ctx, st)
	if err != nil {
		return 0, err
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	cells := make([]any, len(cols))
	for i := range cells {
		cells[i] = new(sql.RawBytes)
	}
	n := 0
	for rs.Next() {
		if err := rs.Scan(cells...); err != nil {
			return n, err
		}
		n++
	}
	return n, rs.Err()
}

// spent is the server's BUSY_TIME and CPU_TIME for user, in seconds.
func spent(ctx context.Context, root *sql.DB, user string) (busy, cpu float64, err error) {
	err = root.QueryRowContext(ctx, "SELECT COALESCE(SUM(BUSY_TIME),0), COALESCE(SUM(CPU_TIME),0) FROM information_schema.USER_STATISTICS WHERE USER = ?", user).Scan(&busy, &cpu)
	return busy, cpu, err
}
