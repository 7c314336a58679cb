package analyzers

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/collectors"
	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// TestIntegrationPerConnectionCPUAndIO: two connections burn CPU in
// BENCHMARK loops, one reads a table four times the buffer pool through a
// secondary index (random clustered-index pages, each a real read: MariaDB
// 10.6+ opens data files with O_DIRECT, so /proc's read_bytes sees them and
// the page cache cannot hide them), twenty sit idle. The monitor must tell
// them apart from /proc/<mysqld>/task/<tid>, and cpu_saturation, when the
// host is saturated, must name the two burners.
func TestIntegrationPerConnectionCPUAndIO(t *testing.T) {
	t.Parallel()
	testdb.Heavy(t) // measures per-thread CPU and I/O
	srv := testdb.Start(t, "--innodb-buffer-pool-size=6M", "--innodb-flush-method=O_DIRECT")
	db := srv.DB(t)
	db.SetMaxOpenConns(40)
	db.SetMaxIdleConns(40)
	mustExec(t, db, "CREATE DATABASE perthread",
		"CREATE TABLE perthread.big (id INT AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL, pad CHAR(250) NOT NULL, KEY (k)) ENGINE=InnoDB",
		"INSERT INTO perthread.big (k, pad) SELECT FLOOR(RAND() * 1000000000), REPEAT('x', 250) FROM perthread.seq_1_to_100000")
	w := newWorkload(t)
	loop := func(stmt string) {
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			for w.ctx.Err() == nil {
				db.ExecContext(w.ctx, stmt)
			}
		}()
	}
	loop("SELECT BENCHMARK(40000000, MD5('burner 1'))")
	loop("SELECT BENCHMARK(40000000, MD5('burner 2'))")
	loop("SELECT SUM(LENGTH(pad)) FROM perthread.big FORCE INDEX (k) WHERE k >= 0")
	idle := idleConnections(t, db, 20)

	// Watch until three frames show the workload right and cpu_saturation,
	// which needs a few samples to stand, had its chance.
	good, why := 0, ""
	// The host collector on: cpu_saturation needs it.
	frames := watch(t, srv, within(120*time.Second), withHost(&collectors.Host{}), until(func(f *snapshot.Frame) bool {
		if why = perThreadVerdict(t, f, idle); why == "" {
			good++
		}
		return good >= 3 && (findingIn(f, IDCPUSaturation) != nil || f.Seq >= 20)
	})).frames
	if good < 3 {
		t.Fatalf("%d good frames of %d; the last: %s", good, len(frames), why)
	}
	// cpu_saturation, when it stood at all and blamed mysqld, named both
	// burners. On this shared machine other processes may be what keeps the
	// CPU busy; then it says so and names no connection.
	for _, f := range frames {
		got := findingIn(f, IDCPUSaturation)
		if got == nil {
			continue
		}
		if strings.Contains(got.Title, "not mysqld") {
			if len(got.Threads) != 0 {
				t.Errorf("frame %d: CPU used by other processes, yet connections named: %v", f.Seq, got.Threads)
			}
			t.Logf("frame %d: %s", f.Seq, got.Title)
			continue
		}
		burners := connsRunning(f, "BENCHMARK(")
		for _, id := range burners {
			if !slices.Contains(got.Threads, id) {
				t.Errorf("frame %d: cpu_saturation names %v, not burner %d:\n%s", f.Seq, got.Threads, id,
					strings.Join(got.Evidence, "\n"))
			}
		}
		t.Logf("cpu_saturation at frame %d names %v:\n%s", f.Seq, got.Threads, strings.Join(got.Evidence, "\n"))
	}
}

func mustExec(t *testing.T, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// idleConnections opens n connections that do nothing and returns their ids.
func idleConnections(t *testing.T, db *sql.DB, n int) []int64 {
	t.Helper()
	var ids []int64
	for range n {
		c, err := db.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		var id int64
		if err := c.QueryRowContext(context.Background(), "SELECT CONNECTION_ID()").Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// connsRunning are the processlist ids whose statement contains text.
func connsRunning(f *snapshot.Frame, text string) []int64 {
	var ids []int64
	for _, p := range f.Snapshot.Processlist {
		if strings.Contains(p.Info, text) {
			ids = append(ids, p.ID)
		}
	}
	return ids
}

// perThreadVerdict is "" when the frame shows what the workload does, else
// what is wrong. The burners must show 50 % of a core each, or, on a machine
// other work keeps busy, a quarter of what mysqld got plus what was idle:
// they cannot have more than the machine gave them.
func perThreadVerdict(t *testing.T, f *snapshot.Frame, idle []int64) string {
	if f.Rates == nil || f.Rates.Threads == nil {
		return "no per-thread rates"
	}
	tr := f.Rates.Threads
	burners, scanners := connsRunning(f, "BENCHMARK("), connsRunning(f, "FORCE INDEX")
	if len(burners) != 2 || len(scanners) != 1 {
		return fmt.Sprintf("running: %d burners, %d scanners", len(burners), len(scanners))
	}
	need := 50.0
	if hr := f.Rates.Host; hr != nil && f.Snapshot.Host != nil {
		room := hr.CPU.Idle*float64(f.Snapshot.Host.NumCPU) + tr.Process.CPU
		need = min(need, room/4)
	}
	var report []string
	for _, id := range burners {
		r, ok := tr.ForConn(id)
		report = append(report, fmt.Sprintf("burner %d %.0f %%", id, r.CPU))
		if !ok || r.CPU < need {
			return fmt.Sprintf("burner %d at %.0f %% of a core (need %.0f); mysqld %.0f %%", id, r.CPU, need, tr.Process.CPU)
		}
	}
	scan, ok := tr.ForConn(scanners[0])
	if !ok || scan.ReadBps <= 0 {
		return fmt.Sprintf("scanner %d reads nothing (%+v)", scanners[0], scan)
	}
	for _, r := range tr.Conns {
		if r.Conn != scanners[0] && r.ReadBps >= scan.ReadBps {
			return fmt.Sprintf("connection %d reads %.0f B/s, the scanner %.0f", r.Conn, r.ReadBps, scan.ReadBps)
		}
	}
	for _, id := range idle {
		if r, ok := tr.ForConn(id); ok && (r.CPU > 2 || r.ReadBps+r.WriteBps > 64<<10) {
			return fmt.Sprintf("idle connection %d uses %+v", id, r)
		}
	}
	t.Logf("frame %d: %s; scanner reads %.1f MiB/s at %.0f %% CPU; mysqld %.0f %% (connections %.0f %%), background %+v; need %.0f %%",
		f.Seq, strings.Join(report, ", "), scan.ReadBps/(1<<20), scan.CPU, tr.Process.CPU, tr.ConnCPU, tr.Background, need)
	return ""
}
