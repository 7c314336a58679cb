package busynormal

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
)

// Busy is the shape of the busy normal. The rate is steady (sysbench
// --rate) so the normal does not drift; the keys are skewed (pareto) so
// that transactions meet on the same rows and row-lock waits are normal;
// the commits are durable (a redo log fsync each) over a pool smaller than
// the tables, so the disk is busy all the time.
type Busy struct {
	Tables, Rows int
	// Threads and Rate are sysbench's: threads, and transactions per second
	// in all.
	Threads, Rate int
	// Lookups is an application's reads by the secondary key k, per second,
	// beside sysbench (whose statements all go by primary key): the queries
	// an index dropped under them turns into scans.
	Lookups int
	// HotRow is clients that each update one counter row in a transaction
	// the application holds HotHold before it commits (work between its
	// statements): a queue on that row at all times, the chronic row-lock
	// waits of a busy OLTP server, which hot_rows reports through the whole
	// normal. 0: none.
	HotRow  int
	HotHold time.Duration
	// SyncWriter is a process beside mysqld that writes the datadir's disk
	// all the time, each 16 KB write synced (a log shipper, an agent's
	// journal): the disk busy as its normal, not as news.
	SyncWriter bool
}

// DefaultBusy is what 2 shared cores keep up with while leaving room for
// a doubled rate: measured, the server runs about half its capacity.
var DefaultBusy = Busy{Tables: 4, Rows: 50000, Threads: 32, Rate: 80, Lookups: 20}

// HotRowBusy is DefaultBusy with a row always queued on: five clients
// holding it 40 ms each make about 25 waits a second and 4 s waited per
// second (hot_rows' warning is 20 and 1 s, its critical 5 s), so the
// normal has a finding that stands through it, which the monitor must
// mark chronic while it names each fault first.
var HotRowBusy = Busy{Tables: 4, Rows: 50000, Threads: 32, Rate: 80, Lookups: 20, HotRow: 5, HotHold: 40 * time.Millisecond}

// ChronicBusy is the normal of a server whose row-lock waits and busy
// disk are how it runs: HotRowBusy with sixty clients queued on the row
// (most of its sessions running are waiting on it, as on a crowded OLTP
// server) on a disk a synced writer keeps busy.
var ChronicBusy = Busy{Tables: 4, Rows: 50000, Threads: 32, Rate: 80, Lookups: 20, HotRow: 60,
	HotHold: 40 * time.Millisecond, SyncWriter: true}

// Shapes are the busy normals by name (MYTOP_BUSYNORMAL_SHAPE).
var Shapes = map[string]Busy{"default": DefaultBusy, "hot-row": HotRowBusy, "chronic": ChronicBusy}

// Bed is a busy server and its clients.
type Bed struct {
	Srv  *testdb.Server
	Busy Busy
	// Link is the clients' network (netns.go); nil where it cannot be made,
	// and then the clients use the socket and the network fault is skipped.
	Link *Link
	// NoLink says why Link is nil.
	NoLink string
	// DB is root over the socket, for the faults' statements.
	DB *sql.DB
	// Dir is scratch space on the datadir's filesystem (dumps, the disk hog).
	Dir   string
	Probe *Probe
	// Began is when the busy normal started.
	Began time.Time

	ctx      context.Context
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	logf     func(string, ...any)
	restore  string  // a dump of one table, for the restore fault
	hogShare float64 // what the last CPU hog's loops used, % of all CPUs
	sysbench string
}

// Start launches the server, loads its tables (in the heavy-test slot)
// and starts the busy normal.
func Start(t testing.TB, busy Busy) *Bed {
	t.Helper()
	b := &Bed{Busy: busy, logf: t.Logf}
	b.sysbench = testdb.Tool(t, "sysbench", "sysbench")
	testdb.Tool(t, "mariadb-client", "mariadb-dump")
	b.Link, b.NoLink = NewLink()
	if b.Link != nil {
		// Registered before the server, so it is removed after it stops.
		t.Cleanup(b.Link.Close)
	}
	args := []string{
		"--innodb-buffer-pool-size=32M", "--innodb-log-file-size=48M",
		"--innodb-flush-log-at-trx-commit=1", "--performance-schema=ON", "--max-connections=400",
	}
	// No binary log: its GTID position is a variable, which changes with
	// every commit, and a recording stores the server's variables (22 KB)
	// each time they change: 3 MB more for a 20-minute run.
	if b.Link != nil {
		args = append(args, "--bind-address=127.0.0.1,"+b.Link.HostAddr)
	}
	b.Srv = testdb.Start(t, args...)
	b.DB = b.Srv.DB(t)
	b.Dir = filepath.Dir(b.Srv.DataDir)
	testdb.HeavyPart(t, func() { b.load(t) })
	b.ctx, b.cancel = context.WithCancel(context.Background())
	t.Cleanup(b.stop)
	var err error
	if b.Probe, err = NewProbe(b.ctx, b.DB, b.Srv.PID, b.Srv.DataDir); err != nil {
		t.Fatalf("busynormal: probe: %v", err)
	}
	b.Began = time.Now()
	b.startSysbench(t, "normal")
	b.startLookups()
	b.startHotRow()
	b.startSyncWriter()
	return b
}

// load makes sysbench's tables (with the seq engine: faster than sysbench
// prepare), its login for the clients across the link, and the dump the
// restore fault loads.
func (b *Bed) load(t testing.TB) {
	t.Helper()
	b.Srv.Exec(t, "CREATE DATABASE sbtest", "CREATE DATABASE IF NOT EXISTS seq",
		"CREATE USER sbtest@'%' IDENTIFIED BY 'sbtest'", "GRANT ALL ON *.* TO sbtest@'%'")
	for i := 1; i <= b.Busy.Tables; i++ {
		b.Srv.Exec(t, fmt.Sprintf("CREATE TABLE sbtest.sbtest%d (id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT 0, "+
			"c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id), KEY k_%d (k)) ENGINE=InnoDB", i, i),
			fmt.Sprintf("INSERT INTO sbtest.sbtest%d SELECT seq, FLOOR(RAND()*%d), "+
				"SUBSTRING(REPEAT(MD5(seq), 4), 1, 119), SUBSTRING(REPEAT(MD5(seq+1), 2), 1, 59) FROM seq.seq_1_to_%d",
				i, b.Busy.Rows, b.Busy.Rows))
	}
	b.Srv.Exec(t, "CREATE TABLE sbtest.hot (id INT PRIMARY KEY, v BIGINT NOT NULL)", "INSERT INTO sbtest.hot VALUES (1, 0)")
	b.restore = filepath.Join(b.Dir, "restore.sql")
	out, err := os.Create(b.restore)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	dump := command(context.Background(), "mariadb-dump", "--no-defaults", "--socket="+b.Srv.Socket, "-uroot", "sbtest",
		fmt.Sprintf("sbtest%d", b.Busy.Tables))
	var msg strings.Builder
	dump.Stdout, dump.Stderr = out, &msg
	if err := dump.Run(); err != nil {
		t.Fatalf("busynormal: dump for the restore: %v: %s", err, msg.String())
	}
}

// startSysbench runs oltp_read_write at the busy rate until the bed stops.
func (b *Bed) startSysbench(t testing.TB, name string) {
	t.Helper()
	cmd, err := b.sysbenchStart(b.ctx, name)
	if err != nil {
		t.Fatalf("busynormal: %v", err)
	}
	b.Go(func() { cmd.Wait() })
}

// sysbenchStart starts oltp_read_write at the busy rate until ctx ends,
// across the link when there is one; it reports every 10 s into the log
// SysbenchLog(name) reads.
func (b *Bed) sysbenchStart(ctx context.Context, name string) (*exec.Cmd, error) {
	args := []string{"oltp_read_write", "--db-driver=mysql", "--mysql-db=sbtest",
		"--tables=" + strconv.Itoa(b.Busy.Tables), "--table-size=" + strconv.Itoa(b.Busy.Rows),
		"--threads=" + strconv.Itoa(b.Busy.Threads), "--rate=" + strconv.Itoa(b.Busy.Rate),
		"--rand-type=pareto", "--time=0", "--report-interval=10", "--mysql-ignore-errors=all"}
	var cmd *exec.Cmd
	if b.Link != nil {
		args = append(args, "--mysql-host="+b.Link.HostAddr, "--mysql-port="+strconv.Itoa(b.Srv.Port),
			"--mysql-user=sbtest", "--mysql-password=sbtest", "run")
		cmd = b.Link.Command(ctx, b.sysbench, args...)
	} else {
		args = append(args, "--mysql-socket="+b.Srv.Socket, "--mysql-user=root", "run")
		cmd = command(ctx, b.sysbench, args...)
	}
	log, err := os.Create(filepath.Join(b.Dir, "sysbench-"+name+".log"))
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = log, log
	err = cmd.Start()
	log.Close() // the child holds its own descriptor
	if err != nil {
		return nil, fmt.Errorf("sysbench: %v", err)
	}
	return cmd, nil
}

// SysbenchLog is what the sysbench run called name reported.
func (b *Bed) SysbenchLog(name string) string {
	out, _ := os.ReadFile(filepath.Join(b.Dir, "sysbench-"+name+".log"))
	return string(out)
}

// startLookups reads rows by k at Busy.Lookups a second, over the socket.
func (b *Bed) startLookups() {
	if b.Busy.Lookups == 0 {
		return
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		tick := time.NewTicker(time.Second / time.Duration(b.Busy.Lookups))
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-b.ctx.Done():
				return
			case <-tick.C:
			}
			// One at a time: a lookup turned into a scan slows the
			// application, as it would, rather than piling up.
			q := fmt.Sprintf("SELECT id, c FROM sbtest.sbtest%d WHERE k = %d", 1+i%b.Busy.Tables, (i*7919)%b.Busy.Rows)
			rows, err := b.DB.QueryContext(b.ctx, q)
			if err == nil {
				for rows.Next() {
				}
				rows.Close()
			}
		}
	}()
}

// startHotRow runs the Busy.HotRow clients, each over a connection of its
// own: begin, update the row, hold it (the application's work), commit.
func (b *Bed) startHotRow() {
	for range b.Busy.HotRow {
		b.Go(func() {
			for b.ctx.Err() == nil {
				tx, err := b.DB.BeginTx(b.ctx, nil)
				if err != nil {
					sleep(b.ctx, b.Busy.HotHold)
					continue
				}
				if _, err := tx.ExecContext(b.ctx, "UPDATE sbtest.hot SET v = v + 1 WHERE id = 1"); err == nil {
					sleep(b.ctx, b.Busy.HotHold)
				}
				if tx.Commit() != nil {
					tx.Rollback()
				}
			}
		})
	}
}

// startSyncWriter runs Busy.SyncWriter: dd writing 16 MB in synced 16 KB
// blocks over one file, again and again.
func (b *Bed) startSyncWriter() {
	if !b.Busy.SyncWriter {
		return
	}
	path := filepath.Join(b.Dir, "syncwriter")
	b.Go(func() {
		defer os.Remove(path)
		for b.ctx.Err() == nil {
			command(b.ctx, "dd", "if=/dev/zero", "of="+path, "bs=16k", "count=1024", "oflag=dsync", "conv=notrunc").Run()
		}
	})
}

// Context is the bed's: it ends when the bed stops.
func (b *Bed) Context() context.Context { return b.ctx }

// Go runs f beside the bed's clients; the bed waits for it when it stops.
func (b *Bed) Go(f func()) {
	b.wg.Add(1)
	go func() { defer b.wg.Done(); f() }()
}

func (b *Bed) stop() {
	b.cancel()
	b.wg.Wait()
}
