package analyzers

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// rootOf returns the tree's root for a thread (or, with thread 0, for a
// transaction with no thread), nil when it is no root.
func rootOf(tr *infer.LockTree, thread int64) *infer.LockNode {
	if tr == nil {
		return nil
	}
	for _, r := range tr.Roots {
		if r.Thread == thread && (thread != 0 || r.TrxID != "") {
			return r
		}
	}
	return nil
}

// Two hot rows with 30 waiters each: 60 waiters, over the lock tables'
// limit, so the tree comes from the InnoDB status. Row 1's holder updated
// it (the record names its transaction: exact); row 2's holder only locked
// it with SELECT ... FOR UPDATE (the record names an old transaction:
// inferred, and marked so). Both roots must be named, each with its own 30.
func TestIntegrationLockTreeTwoHotRows(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--innodb-lock-wait-timeout=300")
	accounts(t, srv)
	db := srv.DB(t)
	w := newWorkload(t)
	var upd, sel int64
	const per = 30
	started := false
	var last *snapshot.Frame
	frames := watch(t, srv, within(90*time.Second), until(func(f *snapshot.Frame) bool {
		last = f
		if !started {
			started, w.began = true, time.Now()
			a, b := w.session(db), w.session(db)
			upd, sel = a.id, b.id
			a.exec(w, "BEGIN", "UPDATE shop.acct SET bal = bal - 1 WHERE id = 1")
			b.exec(w, "BEGIN", "SELECT bal FROM shop.acct WHERE id = 2 FOR UPDATE")
			for i := range 2 * per {
				w.blocked(db, fmt.Sprintf("UPDATE shop.acct SET bal = bal + 1 WHERE id = %d", i%2+1))
			}
			return false
		}
		tr := infer.BuildLockTree(f.Snapshot)
		if tr != nil {
			t.Logf("tree: %s", describeTree(tr))
		}
		ru, rs := rootOf(tr, upd), rootOf(tr, sel)
		// The finding is waited for with its root blockers: on a loaded
		// host the first frames may lack the InnoDB status, and the gauge's
		// finding from them stands through its clear (CI: done at frame 2
		// on that finding, without roots).
		rl := findingIn(f, IDRowLockWaits)
		done := ru != nil && rs != nil && ru.Waiters == per && rs.Waiters == per && rl != nil && len(rl.RootBlockers) >= 2
		return done || time.Since(w.began) > 60*time.Second
	})).frames
	if len(frames) == 0 || last == nil {
		t.Fatal("no frames")
	}
	tr := infer.BuildLockTree(last.Snapshot)
	ru, rs := rootOf(tr, upd), rootOf(tr, sel)
	if ru == nil || rs == nil || ru.Waiters != per || rs.Waiters != per {
		t.Fatalf("want roots %d (UPDATE) and %d (FOR UPDATE) with %d waiters each: %s", upd, sel, per, describeTree(tr))
	}
	if !strings.HasPrefix(tr.Sources[snapshot.LockRow], "SHOW ENGINE INNODB STATUS") {
		t.Errorf("row source %q: 60 waiters should be read from the InnoDB status", tr.Sources[snapshot.LockRow])
	}
	// Exact where the record names the holder, marked where it is guessed.
	if ru.Guessed != 0 || rs.Guessed != per {
		t.Errorf("guessed: UPDATE holder %d of %d (want 0), FOR UPDATE holder %d of %d (want all)",
			ru.Guessed, ru.Waiters, rs.Guessed, rs.Waiters)
	}
	for _, c := range ru.Children {
		if c.Wait.Inferred || c.Wait.Record == "" {
			t.Errorf("row 1 edge %+v: want exact, with its record", c.Wait)
		}
	}
	for _, c := range rs.Children {
		if !c.Wait.Inferred {
			t.Errorf("row 2 edge %+v: want marked inferred", c.Wait)
		}
	}
	if ru.Children[0].Wait.Record == rs.Children[0].Wait.Record {
		t.Errorf("both rows' waiters name record %q", ru.Children[0].Wait.Record)
	}
	// The source's age is known and no older than the lock read's tick.
	if age, ok := last.Snapshot.Locks.SourceAge(snapshot.LockRow); !ok || age > time.Second {
		t.Errorf("row source age %v known %v: want under a second", age, ok)
	}
	rl := findingIn(last, IDRowLockWaits)
	if rl == nil || len(rl.RootBlockers) < 2 {
		t.Fatalf("row_lock_waits names %+v", rl)
	}
	t.Logf("row_lock_waits evidence: %q", rl.Evidence)
}

// A waiter behind an XA transaction PREPARED and left by its session: the
// holder has no thread. The tree must name that transaction (its id, xid
// and age) and what ends it, and blame no session.
func TestIntegrationLockTreeXAPrepared(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--innodb-lock-wait-timeout=300")
	accounts(t, srv)
	db := srv.DB(t)
	w := newWorkload(t)
	// An innocent idle transaction holding a row lock elsewhere: the old
	// fallback blamed the oldest transaction with row locks.
	var innocent, waiter int64
	started := false
	var last *snapshot.Frame
	watch(t, srv, within(60*time.Second), until(func(f *snapshot.Frame) bool {
		last = f
		if !started {
			started, w.began = true, time.Now()
			// Its own pool, closed below: the session ends, the prepared
			// transaction and its lock stay.
			xdb, err := sql.Open("mysql", srv.DSN(""))
			if err != nil {
				t.Fatal(err)
			}
			xa, err := xdb.Conn(w.ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{"XA START 'mytop-xa-1'", "UPDATE shop.acct SET bal = 0 WHERE id = 7",
				"XA END 'mytop-xa-1'", "XA PREPARE 'mytop-xa-1'"} {
				if _, err := xa.ExecContext(w.ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			xa.Close()
			xdb.Close()
			in := w.session(db)
			innocent = in.id
			in.exec(w, "BEGIN", "UPDATE shop.acct SET bal = 1 WHERE id = 9")
			waiter = w.blocked(db, "UPDATE shop.acct SET bal = bal + 1 WHERE id = 7")
			return false
		}
		tr := infer.BuildLockTree(f.Snapshot)
		if tr != nil {
			t.Logf("tree: %s", describeTree(tr))
		}
		r := rootOf(tr, 0)
		return r != nil && r.Trx != nil && r.Trx.XID != "" || time.Since(w.began) > 40*time.Second
	}))
	t.Cleanup(func() { srv.Exec(t, "XA ROLLBACK 'mytop-xa-1'") })
	tr := infer.BuildLockTree(last.Snapshot)
	r := rootOf(tr, 0)
	if r == nil || r.Trx == nil {
		t.Fatalf("no root for the prepared transaction: %s", describeTree(tr))
	}
	if len(r.Children) != 1 || r.Children[0].Thread != waiter || r.Children[0].Wait.Inferred {
		t.Errorf("waiter %d should wait, exactly, on the prepared transaction: %s", waiter, describeTree(tr))
	}
	if rootOf(tr, innocent) != nil {
		t.Errorf("innocent session %d blamed: %s", innocent, describeTree(tr))
	}
	if r.Trx.XID != "'mytop-xa-1'" || !r.Trx.Prepared() || r.Trx.TrxAgeS < 0 || r.Trx.TrxAgeS > 60 ||
		r.Trx.RowsModified != 1 {
		t.Errorf("holder %+v", *r.Trx)
	}
	if st := r.Statement(); !strings.Contains(st, "XA PREPARED transaction "+r.TrxID) ||
		!strings.Contains(st, "XA ROLLBACK 'mytop-xa-1'") {
		t.Errorf("statement %q", st)
	}
	rl := findingIn(last, IDRowLockWaits)
	if rl != nil {
		t.Logf("row_lock_waits evidence: %q", rl.Evidence)
	}
	rb := tr.RootBlockers()
	if len(rb) != 1 || rb[0].TrxID != r.TrxID || rb[0].Ends != "XA ROLLBACK 'mytop-xa-1' (or XA COMMIT 'mytop-xa-1')" {
		t.Errorf("root blockers %+v", rb)
	}
}

// A backup pile-up: a session holds FLUSH TABLES WITH READ LOCK and sits
// idle (the backup copying files); writes and a commit queue in "Waiting
// for backup lock". The tree's root must be that session, exact where
// METADATA_LOCK_INFO is loaded, inferred and marked where it is not.
func TestIntegrationLockTreeBackupPileup(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		args  []string
		exact bool
	}{
		{"plugin", []string{"--plugin-load-add=metadata_lock_info"}, true},
		{"inferred", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := testdb.Start(t, tc.args...)
			accounts(t, srv)
			db := srv.DB(t)
			w := newWorkload(t)
			var holder int64
			var writers []int64
			started := false
			var last *snapshot.Frame
			watch(t, srv, within(60*time.Second), until(func(f *snapshot.Frame) bool {
				last = f
				if !started {
					started, w.began = true, time.Now()
					h := w.session(db)
					holder = h.id
					h.exec(w, "FLUSH TABLES WITH READ LOCK")
					time.Sleep(1100 * time.Millisecond) // idle before the queue, as a backup copying files
					for i := range 4 {
						writers = append(writers, w.blocked(db, fmt.Sprintf("UPDATE shop.acct SET bal = 0 WHERE id = %d", i+1)))
					}
					return false
				}
				tr := infer.BuildLockTree(f.Snapshot)
				if tr != nil {
					t.Logf("tree: %s", describeTree(tr))
				}
				r := rootOf(tr, holder)
				return r != nil && r.Waiters == len(writers) && findingIn(f, IDGlobalReadLockPileup) != nil ||
					time.Since(w.began) > 40*time.Second
			}))
			tr := infer.BuildLockTree(last.Snapshot)
			r := rootOf(tr, holder)
			if r == nil || r.Waiters != len(writers) || r.Kinds[snapshot.LockGlobal] != len(writers) {
				t.Fatalf("want FTWRL holder %d as the root of %d writers: %s", holder, len(writers), describeTree(tr))
			}
			if want := 0; tc.exact && r.Guessed != want || !tc.exact && r.Guessed != len(writers) {
				t.Errorf("guessed %d of %d (exact source: %v)", r.Guessed, r.Waiters, tc.exact)
			}
			if r.Children[0].Wait.Object != "backup lock" {
				t.Errorf("edge %+v", r.Children[0].Wait)
			}
			t.Logf("sources %v notes %v", tr.Sources, tr.Notes)
			// The finding names the same root, first.
			g := findingIn(last, IDGlobalReadLockPileup)
			if g == nil || len(g.RootBlockers) == 0 || g.RootBlockers[0].Thread != holder {
				t.Fatalf("global_read_lock_pileup root blockers %+v, want %d", g, holder)
			}
			t.Logf("evidence %q", g.Evidence)
		})
	}
}
