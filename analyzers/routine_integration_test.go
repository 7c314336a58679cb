package analyzers

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// Routine work on a real server: a logical dump, a hot backup and an online
// schema change, each under a light steady load, must raise nothing at
// warning or above; what they cause is put on them at info.

// routineTally counts, per finding ID and severity, the frames it stood in,
// and keeps its first and last text.
type routineTally struct {
	frames map[string]int
	first  map[string]*snapshot.Finding
	// suffer maps a rule allowed above info, because others suffer for the
	// routine work (the redo about to force a flush), to the text its
	// evidence must carry in every frame: the routine work named.
	suffer   map[string]string
	unnamed  map[string]*snapshot.Finding
	unnamedN map[string]int
	// namedAt is when a suffering rule last named the routine work. The
	// rules name it from the sessions seen in the last 16 samples, and a
	// throttled schema change's session is seen in some samples only: a
	// checkpoint age its copy built can stay high after the last sighting
	// left the window (CI: 2 of 3 critical frames). Within recentlyNamed of
	// a frame that named it, a frame that does not is logged, not failed.
	namedAt  map[string]time.Time
	excusedN map[string]int
}

// recentlyNamed: the sighting window (16 s) and as long again.
const recentlyNamed = 30 * time.Second

func newRoutineTally() *routineTally {
	return &routineTally{frames: map[string]int{}, first: map[string]*snapshot.Finding{}, suffer: map[string]string{},
		unnamed: map[string]*snapshot.Finding{}, unnamedN: map[string]int{}, namedAt: map[string]time.Time{}}
}

func (r *routineTally) add(t *testing.T, f *snapshot.Frame) {
	for i := range f.Findings {
		x := f.Findings[i]
		if briefSilenceExcused(t, f, x) {
			continue
		}
		k := x.ID + "/" + x.Severity.String()
		r.frames[k]++
		if r.first[k] == nil {
			r.first[k] = &x
		}
		want, ok := r.suffer[x.ID]
		named := ok && strings.Contains(strings.Join(x.Evidence, "\n"), want)
		if named {
			r.namedAt[x.ID] = f.Snapshot.Time
		}
		if ok && x.Severity > snapshot.Info && !named {
			if at, seen := r.namedAt[x.ID]; seen && f.Snapshot.Time.Sub(at) <= recentlyNamed {
				t.Logf("frame %d: %s/%s does not name the routine work, named %.0f s before", f.Seq, x.ID, x.Severity,
					f.Snapshot.Time.Sub(at).Seconds())
				continue
			}
			r.unnamedN[k]++
			if r.unnamed[k] == nil {
				r.unnamed[k] = &x
			}
		}
	}
}

// report logs every finding that stood and fails the test for those at
// warning or above, but for the rules in suffer while they name the
// routine work.
func (r *routineTally) report(t *testing.T) {
	t.Helper()
	keys := make([]string, 0, len(r.frames))
	for k := range r.frames {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		x := r.first[k]
		line := fmt.Sprintf("%s in %d frames: %s\n  %s\n  advice: %s", k, r.frames[k], x.Title,
			strings.Join(x.Evidence, "\n  "), x.Advice)
		if _, ok := r.suffer[x.ID]; ok && x.Severity > snapshot.Info {
			if u := r.unnamed[k]; u != nil {
				t.Errorf("%s\n  stood in %d frames without naming the routine work, e.g. %s", line, r.unnamedN[k],
					strings.Join(u.Evidence, "\n  "))
			} else {
				t.Logf("others suffer, the routine work is named: %s", line)
			}
		} else if x.Severity > snapshot.Info {
			t.Errorf("%s", line)
		} else {
			t.Logf("%s", line)
		}
	}
}

// routineWatch watches srv with c, runs start once the monitor is past its
// warm-up, then watches for run, tallying the findings.
func routineWatch(t *testing.T, srv *testdb.Server, c Config, w *workload, run time.Duration, start func()) (*routineTally, []*snapshot.Frame) {
	t.Helper()
	tally := newRoutineTally()
	return tally, routineWatchInto(t, srv, c, w, run, tally, start)
}

// routineWatchInto is routineWatch into a tally made by the caller.
func routineWatchInto(t *testing.T, srv *testdb.Server, c Config, w *workload, run time.Duration, tally *routineTally,
	start func()) []*snapshot.Frame {
	t.Helper()
	frames := watch(t, srv, within(run+40*time.Second), judged(c), until(func(f *snapshot.Frame) bool {
		if !w.startWhenWarm(f, c, start) {
			return false
		}
		tally.add(t, f)
		return time.Since(w.began) >= run
	})).frames
	if w.began.IsZero() || time.Since(w.began) < run {
		t.Fatalf("ran %s of %s (%d frames)", time.Since(w.began).Round(time.Second), run, len(frames))
	}
	return frames
}

// sbtestTables makes n sysbench-shaped tables of rows rows each in schema
// sbtest, with the seq engine (faster than sysbench prepare).
func sbtestTables(t *testing.T, srv *testdb.Server, n, rows int) {
	srv.Exec(t, "CREATE DATABASE IF NOT EXISTS sbtest", "CREATE DATABASE IF NOT EXISTS seq")
	for i := 1; i <= n; i++ {
		srv.Exec(t, fmt.Sprintf("CREATE TABLE sbtest.sbtest%d (id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT 0, "+
			"c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id), KEY k_%d (k)) ENGINE=InnoDB", i, i),
			fmt.Sprintf("INSERT INTO sbtest.sbtest%d SELECT seq, FLOOR(RAND()*%d), "+
				"SUBSTRING(REPEAT(MD5(seq), 4), 1, 119), SUBSTRING(REPEAT(MD5(seq+1), 2), 1, 59) FROM seq.seq_1_to_%d",
				i, rows, rows))
	}
}

// sysbenchLoad runs sysbench oltp_read_write against sbtest at rate
// transactions/s until the workload stops; it skips the test without sysbench.
func sysbenchLoad(t *testing.T, w *workload, srv *testdb.Server, tables, rows, rate int) {
	bin, err := exec.LookPath("sysbench")
	if err != nil {
		t.Skip("sysbench is not installed (apt-get install sysbench)")
	}
	cmd := exec.CommandContext(w.ctx, bin, "oltp_read_write", "--db-driver=mysql", "--mysql-socket="+srv.Socket,
		"--mysql-user=root", "--mysql-db=sbtest", fmt.Sprintf("--tables=%d", tables), fmt.Sprintf("--table-size=%d", rows),
		"--threads=2", fmt.Sprintf("--rate=%d", rate), "--time=600", "run")
	if err := cmd.Start(); err != nil {
		t.Fatalf("sysbench run: %v", err)
	}
	w.wg.Add(1)
	go func() { defer w.wg.Done(); cmd.Wait() }()
}

// dumpOnce runs mariadb-dump --single-transaction of sbtest, writing to out
// (a slow reader keeps its transaction open longer); it returns the time taken.
func dumpOnce(ctx context.Context, srv *testdb.Server, out io.Writer) (time.Duration, error) {
	began := time.Now()
	cmd := exec.CommandContext(ctx, "mariadb-dump", "--no-defaults", "--socket="+srv.Socket, "-uroot",
		"--single-transaction", "--routines", "--triggers", "sbtest")
	cmd.Stdout = out
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	if err != nil {
		err = fmt.Errorf("%v: %s", err, tail(stderr.String(), 1000))
	}
	return time.Since(began), err
}

// slowWriter passes bytes at most perSec a second.
type slowWriter struct{ perSec int }

func (s slowWriter) Write(p []byte) (int, error) {
	time.Sleep(time.Duration(float64(len(p)) / float64(s.perSec) * float64(time.Second)))
	return len(p), nil
}

func TestIntegrationRoutineDumpUnderLoad(t *testing.T) {
	t.Parallel()
	dumpUnderLoad(t, false)
}

// With performance_schema on, the digests measure the dump's share.
func TestIntegrationRoutineDumpDigestsUnderLoad(t *testing.T) {
	t.Parallel()
	dumpUnderLoad(t, true)
}

func dumpUnderLoad(t *testing.T, digests bool) {
	if testing.Short() {
		t.Skip("starts MariaDB")
	}
	if _, err := exec.LookPath("mariadb-dump"); err != nil {
		t.Skip("mariadb-dump is not installed (mariadb-client)")
	}
	args := []string{"--innodb-buffer-pool-size=256M", "--innodb-log-file-size=96M"}
	if digests {
		args = append(args, "--performance-schema=ON")
	}
	// Dumps back to back beside a sysbench load; the slow dump that follows
	// mostly waits on its destination and gives the slot back.
	release := testdb.HeavyUntil(t)
	srv := testdb.Start(t, args...)
	const tables, rows = 8, 30000 // about 60 MB
	sbtestTables(t, srv, tables, rows)
	w := newWorkload(t)
	// long_transaction names a transaction at 300 s (innotop); the proof
	// lowers it to 15 s to stay short: the rule and its inputs are the same.
	c := heavyTwin() // the work starts at the first frame, no idle warm-up in the slot
	c.LongTrxWarn, c.LongTrxCrit = 15*time.Second, 30*time.Second
	var dumps []time.Duration
	// The quiet windows cover the longest persistence (30 s) with room to
	// spare: 30 s of dumps back to back, then the slow one.
	const loop = 30 * time.Second
	slow := 25 * time.Second
	if digests {
		slow = 0
	}
	tally, frames := routineWatch(t, srv, c, w, loop+slow, func() {
		sysbenchLoad(t, w, srv, tables, rows, 20)
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			// Back to back for a while, as a nightly job's loop over schemas.
			for w.ctx.Err() == nil && time.Since(w.began) < loop {
				d, err := dumpOnce(w.ctx, srv, io.Discard)
				if err != nil {
					if w.ctx.Err() == nil {
						t.Logf("mariadb-dump failed (run again): %v", err)
						time.Sleep(time.Second)
					}
					continue
				}
				dumps = append(dumps, d)
			}
			if digests {
				return
			}
			// Then one to a slow destination (a network share): its
			// consistent-snapshot transaction stays open past LongTrxWarn.
			release()
			bw := bufio.NewWriterSize(slowWriter{perSec: 1 << 20}, 64<<10)
			d, err := dumpOnce(w.ctx, srv, bw)
			if err != nil && w.ctx.Err() == nil {
				t.Logf("slow mariadb-dump: %v", err)
			}
			dumps = append(dumps, d)
		}()
	})
	w.stop()
	tally.report(t)
	t.Logf("%d frames, dumps took %v", len(frames), dumps)
	n, name := routineFrames(frames, toolDump)
	t.Logf("mariadb-dump named in %d frames, e.g. %s", n, name)
	if n == 0 {
		t.Error("the dump's sessions were never recognised")
	}
	// What the dump causes is put on it: its information_schema reads' disk
	// tables, and the slow dump's transaction past LongTrxWarn.
	for _, id := range []string{IDTmpDiskTables, IDLongTransaction} {
		if x := tally.first[id+"/info"]; x != nil && !strings.Contains(x.Title, "mariadb-dump") {
			t.Errorf("%s at info does not name the dump: %s", id, x.Title)
		}
	}
	if tally.first[IDLongTransaction+"/info"] == nil && !digests {
		t.Error("the slow dump's transaction was not named")
	}
	// The first info may come before the first digest read (every 5 s): the
	// digests must measure the share once they are read.
	if x := tally.first[IDTmpDiskTables+"/info"]; digests && x != nil && !tmpShareByDigests(frames) {
		t.Errorf("the dump's share is never measured by the digests: %s", strings.Join(x.Evidence, "\n"))
	}
	if len(dumps) < 2 {
		t.Errorf("only %d dumps ran", len(dumps))
	}
	if tps, _ := frames[len(frames)-1].Rates.Rate("Com_commit"); tps < 5 {
		t.Errorf("only %.0f commits/s: sysbench did not run", tps)
	}
	if !digests {
		saveHealthy(t, "dump-under-load", frames, w.began)
	}
}

func TestIntegrationRoutineHotBackupUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts MariaDB")
	}
	t.Parallel()
	bin, err := exec.LookPath("mariabackup")
	if err != nil {
		t.Skip("mariabackup is not installed (apt-get install mariadb-backup)")
	}
	// Backups back to back; the last 10 s, the aftermath at sysbench's
	// 20 transactions/s, give the slot back.
	release := testdb.HeavyUntil(t)
	srv := testdb.Start(t, "--innodb-buffer-pool-size=256M", "--innodb-log-file-size=96M")
	const tables, rows = 8, 30000
	sbtestTables(t, srv, tables, rows)
	w := newWorkload(t)
	c := heavyTwin() // the work starts at the first frame, no idle warm-up in the slot
	var backups []time.Duration
	// Backups back to back for 25 s, then 10 s of aftermath: 35 s in all,
	// past the longest persistence (30 s).
	const loop = 35 * time.Second
	tally, frames := routineWatch(t, srv, c, w, loop, func() {
		sysbenchLoad(t, w, srv, tables, rows, 20)
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			defer release()
			for i := 0; w.ctx.Err() == nil && time.Since(w.began) < loop-10*time.Second; i++ {
				dir := filepath.Join(t.TempDir(), fmt.Sprintf("bk%d", i))
				began := time.Now()
				out, err := exec.CommandContext(w.ctx, bin, "--no-defaults", "--backup", "--socket="+srv.Socket,
					"--user=root", "--target-dir="+dir, "--datadir="+srv.DataDir).CombinedOutput()
				if err != nil {
					if w.ctx.Err() == nil {
						t.Errorf("mariabackup: %v\n%s", err, tail(string(out), 2000))
					}
					return
				}
				backups = append(backups, time.Since(began))
				os.RemoveAll(dir)
			}
		}()
	})
	w.stop()
	tally.report(t)
	t.Logf("%d frames, backups took %v", len(frames), backups)
	n, name := routineFrames(frames, toolBackup)
	t.Logf("mariabackup named in %d frames, e.g. %s", n, name)
	if n == 0 {
		// A 2-s backup's statements can all fall between 1-s samples on a
		// loaded machine; what must hold is that nothing alarms.
		t.Log("the backup's sessions were not caught by any sample this run")
	}
	if len(backups) == 0 {
		t.Error("no backup completed")
	}
}

func TestIntegrationRoutineOnlineSchemaChangeUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts MariaDB")
	}
	t.Parallel()
	bin, err := exec.LookPath("pt-online-schema-change")
	if err != nil {
		t.Skip("pt-online-schema-change is not installed (apt-get install percona-toolkit)")
	}
	if out, err := exec.Command("perl", "-MDBI", "-MDBD::mysql", "-e1").CombinedOutput(); err != nil {
		if out2, err2 := exec.Command("perl", "-MDBI", "-MDBD::MariaDB", "-e1").CombinedOutput(); err2 != nil {
			t.Skipf("pt-online-schema-change needs perl DBI with DBD::mysql or DBD::MariaDB (libdbd-mysql-perl): %s %s", out, out2)
		}
	}
	// performance_schema on, so the digests put the counters on the statements.
	// The slot is given back once both copies are done: the rest of the
	// window is the application's paced load.
	release := testdb.HeavyUntil(t)
	srv := testdb.Start(t, "--innodb-buffer-pool-size=256M", "--innodb-log-file-size=96M", "--performance-schema=ON")
	const rows = 200000
	srv.Exec(t, "CREATE DATABASE shop", "CREATE DATABASE seq",
		"CREATE TABLE shop.items (id INT PRIMARY KEY, k INT NOT NULL, v INT NOT NULL, pad CHAR(120) NOT NULL, "+
			"KEY (k)) ENGINE=InnoDB",
		fmt.Sprintf("INSERT INTO shop.items SELECT seq, seq %% 5000, 0, REPEAT('x', 120) FROM seq.seq_1_to_%d", rows))
	db := srv.DB(t)
	w := newWorkload(t)
	c := heavyTwin() // the work starts at the first frame, no idle warm-up in the slot
	var took []time.Duration
	const run = 45 * time.Second
	tally := newRoutineTally()
	// The schema change's row copy writes redo fast: when it brings the
	// checkpoint age near the sync flush point, others do suffer (writes are
	// about to stall), and checkpoint_age_high may say so above info, as
	// long as it names the copy.
	tally.suffer[IDCheckpointAgeHigh] = "routine work writing in the window: pt-online-schema-change"
	frames := routineWatchInto(t, srv, c, w, run, tally, func() {
		// A light primary-key load, as an application's.
		w.clients(db, 2, 20*time.Millisecond, func(r *rand.Rand) string {
			return fmt.Sprintf("UPDATE shop.items SET v = v + 1 WHERE id = %d", 1+r.IntN(rows))
		})
		w.clients(db, 2, 10*time.Millisecond, func(r *rand.Rand) string {
			return fmt.Sprintf("SELECT v, pad FROM shop.items WHERE id = %d", 1+r.IntN(rows))
		})
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			defer release()
			// The routine-work review: adding a column to a 200,000-row table, twice, as a
			// migration does. Throttled as a DBA runs it on a live server
			// (fixed 2,000-row chunks, 0.1 s between them: about 12 s a
			// copy): unthrottled, pt-osc grew its chunks to 66,667 rows and
			// copied in under a second, too fast for one sample a second to
			// see its session, and its chunk-boundary reads (LIMIT 66666, 2)
			// then looked like an application's deep pages.
			for i := range 2 {
				time.Sleep(3 * time.Second)
				began := time.Now()
				out, err := exec.CommandContext(w.ctx, bin, "--alter", fmt.Sprintf("ADD COLUMN note%d INT", i), "--execute",
					"--chunk-time=0", "--chunk-size=2000", "--sleep=0.1",
					"--recursion-method=none", "--no-check-replication-filters",
					"h=localhost,S="+srv.Socket+",u=root,D=shop,t=items").CombinedOutput()
				if err != nil {
					if w.ctx.Err() == nil {
						t.Errorf("pt-online-schema-change: %v\n%s", err, tail(string(out), 2000))
					}
					return
				}
				took = append(took, time.Since(began))
				time.Sleep(3 * time.Second)
			}
		}()
	})
	w.stop()
	tally.report(t)
	t.Logf("%d frames, schema changes took %v", len(frames), took)
	n, name := routineFrames(frames, toolPTOSC)
	t.Logf("pt-online-schema-change named in %d frames, e.g. %s", n, name)
	if n == 0 {
		// Throttled, the copy's session is asleep between 2,000-row chunks
		// that take a few ms: one sample a second caught none of them in two
		// runs on 2026-12-03, one of them holding the heavy slot. What must hold is
		// that nothing alarms without naming it (tally.report); the sessions
		// asleep between chunks are a known blind spot.
		t.Log("the schema change's sessions were not caught by any sample this run")
	}
	if len(took) == 0 {
		t.Error("no schema change completed")
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

// routineFrames counts the frames in which the recogniser named a session of
// tool (connected then, or seen within the window, as the rules read it),
// and returns one name it gave.
func routineFrames(frames []*snapshot.Frame, tool string) (int, string) {
	n, name := 0, ""
	counts := map[int]procCounts{}
	c := DefaultConfig()
	for i := range frames {
		w := newWindow(frames[max(0, i-c.SightingWindow):i+1], counts, &c)
		for _, s := range w.routine().sessions {
			if s.Tool == tool {
				n++
				name = s.Name()
				break
			}
		}
	}
	return n, name
}

// tmpShareByDigests: some frame's tmp_disk_tables finding measured routine
// work's share with the digests.
func tmpShareByDigests(frames []*snapshot.Frame) bool {
	for _, f := range frames {
		for _, x := range f.Findings {
			if x.ID == IDTmpDiskTables && strings.Contains(strings.Join(x.Evidence, "\n"), "by performance_schema digests") {
				return true
			}
		}
	}
	return false
}
