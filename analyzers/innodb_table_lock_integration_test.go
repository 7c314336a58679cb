package analyzers

import (
	"database/sql"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// autoIncIncident starts a server with innodb_autoinc_lock_mode=mode, two
// sessions copying a 100,000-row table into app.dst again and again and 12
// single-row inserters into it, and watches until the finding stands (or
// d). It returns the frames, the finding, the copies' connection ids and
// when the workload began.
func autoIncIncident(t *testing.T, mode string, d time.Duration) ([]*snapshot.Frame, *snapshot.Finding, []int64, time.Time) {
	t.Helper()
	srv := autoIncServer(t, mode)
	db := srv.DB(t)
	w := newWorkload(t)
	var copies []int64
	cfg := DefaultConfig()
	cfg.WarmupSeconds = 0
	var got *snapshot.Finding
	frames := watch(t, srv, within(d), judged(cfg), until(func(f *snapshot.Frame) bool {
		if w.began.IsZero() {
			copies = autoIncLoad(w, db)
			w.began = time.Now()
			return false
		}
		got = findingIn(f, IDInnoDBTableLockQueue)
		return got != nil
	})).frames
	return frames, got, copies, w.began
}

// autoIncServer starts a server with innodb_autoinc_lock_mode=mode, holding
// the copy's source (100,000 rows) and its destination.
func autoIncServer(t *testing.T, mode string) *testdb.Server {
	t.Helper()
	testdb.Heavy(t)
	srv := testdb.Start(t, "--innodb-autoinc-lock-mode="+mode, "--innodb-lock-wait-timeout=300")
	srv.ExecHeavy(t, "CREATE DATABASE app",
		"CREATE TABLE app.src (id INT PRIMARY KEY AUTO_INCREMENT, v VARCHAR(100))",
		"CREATE TABLE app.dst (id INT PRIMARY KEY AUTO_INCREMENT, v VARCHAR(100))",
		"INSERT INTO app.src (v) SELECT REPEAT('x', 100) FROM seq.seq_1_to_100000")
	return srv
}

// autoIncLoad starts two sessions copying app.src into app.dst again and
// again and 12 single-row inserters into it, and returns the copies' ids.
func autoIncLoad(w *workload, db *sql.DB) []int64 {
	var copies []int64
	for range 2 {
		s := w.session(db)
		copies = append(copies, s.id)
		s.loop(w, "INSERT INTO app.dst (v) SELECT v FROM app.src")
	}
	w.clients(db, 12, 0, func(*rand.Rand) string { return "INSERT INTO app.dst (v) VALUES ('a')" })
	return copies
}

// loop runs q on the session again and again until the workload stops.
func (s *session) loop(w *workload, q string) {
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		for w.ctx.Err() == nil {
			if _, err := s.conn.ExecContext(w.ctx, q); err != nil && w.ctx.Err() == nil {
				w.t.Logf("%s: %v", q, err)
				return
			}
		}
	}()
}

// The incident: under mode 0 the copies hold the table's AUTO-INC lock for
// their whole run and the inserters queue behind it. Named within 10 s with
// a copy as the holder; the lock tree has the table-lock edges, and the load
// view counts the queued inserters as table-lock waits, not CPU.
func TestIntegrationAutoIncLockQueue(t *testing.T) {
	t.Parallel()
	frames, f, copies, began := autoIncIncident(t, "0", 30*time.Second)
	if f == nil {
		t.Fatalf("no %s in %d frames", IDInnoDBTableLockQueue, len(frames))
	}
	last := frames[len(frames)-1]
	after := last.Snapshot.Time.Sub(began)
	namedInTime(t, f, after)
	if len(f.Threads) == 0 || !slices.Contains(copies, f.Threads[0]) {
		t.Errorf("threads %v, want a copy (%v) first", f.Threads, copies)
	}
	tr := infer.BuildLockTree(last.Snapshot)
	if tr == nil || len(tr.Roots) == 0 || tr.Roots[0].Kinds[snapshot.LockTable] == 0 {
		t.Fatalf("no table-lock edges in the lock tree: %+v", tr)
	}
	if l := last.Load; l == nil || l.Classes[snapshot.ClassTableLock] < 3 {
		t.Errorf("load view: %+v, want the queued inserters as table-lock waits", l)
	}
}

// The twin: mode 2 lets the same inserts through; nothing queues.
func TestIntegrationAutoIncInterleavedIsQuiet(t *testing.T) {
	t.Parallel()
	frames, f, _, _ := autoIncIncident(t, "2", 15*time.Second)
	if f != nil {
		t.Errorf("mode 2 raised %s: %s %v", f.ID, f.Title, f.Evidence)
	}
	if len(frames) < 10 {
		t.Errorf("only %d frames watched", len(frames))
	}
}
