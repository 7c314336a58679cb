package analyzers

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// Lock-tree proofs: each incident is built on a throwaway MariaDB with the
// holder's connection id taken by the test, sampled by the real collectors,
// and the tree's root compared with it; then the frames are written to a
// recording and read back, and the replayed tree must have the same roots.

// lockIncident samples srv until the tree shows want waiters beneath one
// root (or 40 s pass) and returns the frames.
func lockIncident(t *testing.T, srv *testdb.Server, w *workload, start func(), want int, finding ...string) []*snapshot.Frame {
	t.Helper()
	started := false
	return watch(t, srv, within(60*time.Second), until(func(f *snapshot.Frame) bool {
		if !started {
			start()
			started, w.began = true, time.Now()
			return false
		}
		tr := infer.BuildLockTree(f.Snapshot)
		if tr == nil {
			return false
		}
		t.Logf("tree: %s", describeTree(tr))
		for _, id := range finding {
			if findingIn(f, id) == nil {
				return time.Since(w.began) > 40*time.Second
			}
		}
		// A tick that ran out of time before a lock table (a loaded machine:
		// "not read: too little of the tick left") builds the tree from what
		// it did read; the proof wants one that read every source.
		complete := !strings.Contains(strings.Join(tr.Notes, "\n"), "too little of the tick left")
		return len(tr.Roots) > 0 && tr.Roots[0].Waiters >= want && complete || time.Since(w.began) > 40*time.Second
	})).frames
}

func describeTree(tr *infer.LockTree) string {
	var b strings.Builder
	for _, r := range tr.Roots {
		fmt.Fprintf(&b, "[root %d %s waiters %d children %d %q] ", r.Thread, r.Wait.Kind, r.Waiters,
			len(r.Children), r.Statement())
	}
	fmt.Fprintf(&b, "sources %v notes %v", tr.Sources, tr.Notes)
	return b.String()
}

// wantRoot checks the last frame's first root, then the same frame replayed
// from a recording; it returns the live tree.
func wantRoot(t *testing.T, frames []*snapshot.Frame, holder int64, waiters int) *infer.LockTree {
	t.Helper()
	last := frames[len(frames)-1]
	tr := infer.BuildLockTree(last.Snapshot)
	if tr == nil || len(tr.Roots) == 0 {
		t.Fatalf("no lock tree in the last frame")
	}
	if r := tr.Roots[0]; r.Thread != holder || r.Waiters != waiters {
		t.Fatalf("root %d with %d waiters, want holder %d with %d: %s", r.Thread, r.Waiters, holder, waiters,
			describeTree(tr))
	}
	replayed := replayTree(t, frames)
	if replayed == nil || len(replayed.Roots) != len(tr.Roots) {
		t.Fatalf("replayed tree differs: %v", replayed)
	}
	for i, r := range replayed.Roots {
		if r.Thread != tr.Roots[i].Thread || r.Waiters != tr.Roots[i].Waiters || r.Statement() != tr.Roots[i].Statement() {
			t.Errorf("replayed root %d: %d/%d %q, live %d/%d %q", i, r.Thread, r.Waiters, r.Statement(),
				tr.Roots[i].Thread, tr.Roots[i].Waiters, tr.Roots[i].Statement())
		}
	}
	return tr
}

// replayTree writes frames to a recording and builds the last one's tree
// from what the file gives back.
func replayTree(t *testing.T, frames []*snapshot.Frame) *infer.LockTree {
	t.Helper()
	r := recorded(t, frames)
	s, err := r.Snapshot(r.Len() - 1)
	if err != nil {
		t.Fatal(err)
	}
	return infer.BuildLockTree(s)
}

// background runs q on the session without waiting for it (it blocks).
func (s *session) background(w *workload, q string) {
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		if _, err := s.conn.ExecContext(w.ctx, q); err != nil && w.ctx.Err() == nil {
			w.t.Logf("%s: %v", q, err)
		}
	}()
}

func TestIntegrationLockTreeHotRow(t *testing.T) {
	t.Parallel()
	// performance_schema's current statement keeps the holder's last one.
	srv := testdb.Start(t, "--innodb-lock-wait-timeout=300", "--performance-schema=ON",
		"--performance-schema-consumer-events-statements-current=ON")
	accounts(t, srv)
	db := srv.DB(t)
	w := newWorkload(t)
	var holder int64
	frames := lockIncident(t, srv, w, func() {
		h := w.session(db)
		holder = h.id
		h.exec(w, "BEGIN", "UPDATE shop.acct SET bal = bal - 1 WHERE id = 1")
		for range 10 {
			w.blocked(db, "UPDATE shop.acct SET bal = bal + 1 WHERE id = 1")
		}
	}, 10)
	tr := wantRoot(t, frames, holder, 10)
	r := tr.Roots[0]
	if len(r.Children) != 10 || !strings.HasPrefix(r.Statement(), "idle in transaction for ") ||
		!strings.HasSuffix(r.Statement(), ", last: UPDATE shop.acct SET bal = bal - 1 WHERE id = 1") {
		t.Errorf("children %d, statement %q", len(r.Children), r.Statement())
	}
	if r.Children[0].Wait.Object != "shop.acct PRIMARY" || r.Children[0].Wait.Inferred {
		t.Errorf("edge %+v", r.Children[0].Wait)
	}
	if tr.Sources[snapshot.LockRow] != "information_schema.INNODB_LOCK_WAITS" {
		t.Errorf("sources %v", tr.Sources)
	}
	rl := findingIn(frames[len(frames)-1], IDRowLockWaits)
	t.Logf("row_lock_waits: %+v", rl)
}

func TestIntegrationLockTreeChain(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--innodb-lock-wait-timeout=300")
	accounts(t, srv)
	db := srv.DB(t)
	w := newWorkload(t)
	var a, b, c int64
	frames := lockIncident(t, srv, w, func() {
		sa, sb := w.session(db), w.session(db)
		a, b = sa.id, sb.id
		sa.exec(w, "BEGIN", "UPDATE shop.acct SET bal = 0 WHERE id = 1")
		sb.exec(w, "BEGIN", "UPDATE shop.acct SET bal = 0 WHERE id = 2")
		sb.background(w, "UPDATE shop.acct SET bal = 1 WHERE id = 1")
		time.Sleep(200 * time.Millisecond)
		c = w.blocked(db, "UPDATE shop.acct SET bal = 2 WHERE id = 2")
	}, 2)
	tr := wantRoot(t, frames, a, 2)
	r := tr.Roots[0]
	if len(r.Children) != 1 || r.Children[0].Thread != b || len(r.Children[0].Children) != 1 ||
		r.Children[0].Children[0].Thread != c {
		t.Errorf("not the chain %d <- %d <- %d: %s", a, b, c, describeTree(tr))
	}
}

// An open transaction in front of ALTER TABLE with 10 SELECTs queued behind
// the ALTER: the root is the transaction, not the ALTER, whichever source of
// metadata locks the server offers.
func TestIntegrationLockTreeMetadata(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, source string
		args         []string
	}{
		{"inferred", "processlist (inferred)", nil},
		{"plugin", "information_schema.METADATA_LOCK_INFO", []string{"--plugin-load-add=metadata_lock_info"}},
		{"performance_schema", "performance_schema.metadata_locks", []string{"--performance-schema=ON",
			"--performance-schema-instrument=wait/lock/metadata/sql/mdl=ON"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := testdb.Start(t, tc.args...)
			accounts(t, srv)
			db := srv.DB(t)
			w := newWorkload(t)
			var holder, alter int64
			frames := lockIncident(t, srv, w, func() {
				h := w.session(db)
				holder = h.id
				h.exec(w, "BEGIN", "SELECT bal FROM shop.acct WHERE id = 1")
				alter = w.blocked(db, "ALTER TABLE shop.acct ADD COLUMN note INT")
				time.Sleep(300 * time.Millisecond)
				for i := range 10 {
					w.blocked(db, fmt.Sprintf("SELECT bal FROM shop.acct WHERE id = %d", i+2))
				}
			}, 11, IDMetadataLockPileup)
			tr := wantRoot(t, frames, holder, 11)
			wantRootBlocker(t, findingIn(frames[len(frames)-1], IDMetadataLockPileup), holder, 11)
			r := tr.Roots[0]
			if len(r.Children) != 1 || r.Children[0].Thread != alter || len(r.Children[0].Children) != 10 {
				t.Errorf("the SELECTs should queue behind ALTER %d: %s", alter, describeTree(tr))
			}
			if tr.Sources[snapshot.LockMetadata] != tc.source {
				t.Errorf("source %q, want %q", tr.Sources[snapshot.LockMetadata], tc.source)
			}
			if inferred := tc.source == "processlist (inferred)"; tr.Inferred != inferred {
				t.Errorf("inferred %v, want %v; notes %v", tr.Inferred, inferred, tr.Notes)
			}
		})
	}
}

// A MyISAM table held by a long UPDATE with SELECTs waiting.
func TestIntegrationLockTreeTableLock(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t)
	srv.Exec(t, "CREATE DATABASE shop", "CREATE DATABASE seq",
		"CREATE TABLE shop.m (id INT PRIMARY KEY, v INT NOT NULL) ENGINE=MyISAM",
		"INSERT INTO shop.m SELECT seq, 0 FROM seq.seq_1_to_20000")
	db := srv.DB(t)
	w := newWorkload(t)
	var holder int64
	frames := lockIncident(t, srv, w, func() {
		// 400 sleeps of 50 ms: the UPDATE holds the table for 20 s.
		holder = w.blocked(db, "UPDATE shop.m SET v = v + 1 WHERE IF(id % 50 = 0, SLEEP(0.05), 0) = 0")
		time.Sleep(300 * time.Millisecond)
		for i := range 5 {
			w.blocked(db, fmt.Sprintf("SELECT COUNT(*) FROM shop.m WHERE v > %d", i))
		}
	}, 5, IDTableLockContention)
	tr := wantRoot(t, frames, holder, 5)
	wantRootBlocker(t, findingIn(frames[len(frames)-1], IDTableLockContention), holder, 5)
	if k := tr.Roots[0].Children[0].Wait; k.Kind != snapshot.LockTable || !k.Inferred || k.Object != "shop.m" {
		t.Errorf("edge %+v", k)
	}
}

// wantRootBlocker checks that a lock finding names the holder first.
func wantRootBlocker(t *testing.T, f *snapshot.Finding, holder int64, waiters int) {
	t.Helper()
	if f == nil {
		t.Fatal("no finding")
	}
	if len(f.RootBlockers) == 0 || f.RootBlockers[0].Thread != holder || f.RootBlockers[0].Waiters != waiters {
		t.Fatalf("root blockers %+v, want thread %d with %d waiters", f.RootBlockers, holder, waiters)
	}
	if f.Threads[0] != holder || !strings.HasPrefix(f.Evidence[0], fmt.Sprintf("root blocker: thread %d ", holder)) {
		t.Errorf("threads %v, evidence %q", f.Threads, f.Evidence[0])
	}
	t.Logf("%s: %s", f.ID, strings.Join(f.Evidence, "\n"))
}

// A queue too long for the lock tables (over 50 waiters) is read from the
// InnoDB status: the holder updated the row, so the record names its
// transaction and the edges are exact.
func TestIntegrationLockTreeLongQueue(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--innodb-lock-wait-timeout=300")
	accounts(t, srv)
	db := srv.DB(t)
	w := newWorkload(t)
	var holder int64
	const n = 60
	frames := lockIncident(t, srv, w, func() {
		h := w.session(db)
		holder = h.id
		h.exec(w, "BEGIN", "UPDATE shop.acct SET bal = bal - 1 WHERE id = 1")
		for range n {
			w.blocked(db, "UPDATE shop.acct SET bal = bal + 1 WHERE id = 1")
		}
	}, n)
	tr := wantRoot(t, frames, holder, n)
	if tr.Sources[snapshot.LockRow] != "SHOW ENGINE INNODB STATUS (holders from the records)" || tr.Inferred ||
		tr.Roots[0].Guessed != 0 || tr.Roots[0].Children[0].Wait.Object != "shop.acct PRIMARY" {
		t.Errorf("sources %v inferred %v edge %+v", tr.Sources, tr.Inferred, tr.Roots[0].Children[0].Wait)
	}
}
