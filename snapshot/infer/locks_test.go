package infer

import (
	"slices"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func proc(id int64, cmd string, secs int64, state, info string) snapshot.Process {
	return snapshot.Process{ID: id, User: "app", Command: cmd, TimeMS: secs * 1000, State: state, Info: info}
}

func rootIDs(tr *LockTree) []int64 {
	var out []int64
	for _, r := range tr.Roots {
		out = append(out, r.Thread)
	}
	return out
}

// A hot row: InnoDB lists every waiter as waiting for the holder and for
// every request queued before its own; the root is the holder, once.
func TestLockTreeHotRow(t *testing.T) {
	s := &snapshot.Snapshot{Processlist: []snapshot.Process{proc(1, "Sleep", 40, "", "")}, Locks: &snapshot.Locks{
		Threads: []snapshot.LockThread{{ID: 1, TrxAgeS: 50}}}}
	for w := int64(2); w <= 11; w++ {
		s.Processlist = append(s.Processlist, proc(w, "Query", 5, "Updating", "UPDATE t SET v=1 WHERE id=1"))
		s.Locks.Waits = append(s.Locks.Waits, snapshot.LockWait{Waiter: w, Blocker: 1, Kind: snapshot.LockRow})
		for ahead := int64(2); ahead < w; ahead++ {
			s.Locks.Waits = append(s.Locks.Waits, snapshot.LockWait{Waiter: w, Blocker: ahead, Kind: snapshot.LockRow})
		}
	}
	tr := BuildLockTree(s)
	if got := rootIDs(tr); !slices.Equal(got, []int64{1}) {
		t.Fatalf("roots %v", got)
	}
	r := tr.Roots[0]
	if r.Waiters != 10 || len(r.Children) != 10 || tr.Waiting != 10 {
		t.Fatalf("waiters %d children %d waiting %d", r.Waiters, len(r.Children), tr.Waiting)
	}
	if got := r.Statement(); got != "idle in transaction for 40 s" {
		t.Errorf("statement %q", got)
	}
	rb := tr.RootBlockers(snapshot.LockRow)
	if len(rb) != 1 || rb[0].Thread != 1 || rb[0].AgeS != 50 || rb[0].Waiters != 10 || rb[0].User != "app" {
		t.Errorf("root blockers %+v", rb)
	}
	if len(tr.RootBlockers(snapshot.LockTable)) != 0 {
		t.Error("a row-lock root named for table locks")
	}
}

func TestLockTreeChainAndCycle(t *testing.T) {
	s := &snapshot.Snapshot{Locks: &snapshot.Locks{Waits: []snapshot.LockWait{
		{Waiter: 3, Blocker: 2, Kind: snapshot.LockRow}, {Waiter: 2, Blocker: 1, Kind: snapshot.LockRow},
		// a deadlock not yet broken: 7 and 8 wait for each other, 9 for 8
		{Waiter: 7, Blocker: 8, Kind: snapshot.LockRow}, {Waiter: 8, Blocker: 7, Kind: snapshot.LockRow},
		{Waiter: 9, Blocker: 8, Kind: snapshot.LockRow},
		// nobody seen holds the query cache
		{Waiter: 20, Kind: snapshot.LockQueryCache, Object: "query cache"},
	}}}
	tr := BuildLockTree(s)
	if got := rootIDs(tr); !slices.Equal(got, []int64{1, 7, 0}) {
		t.Fatalf("roots %v", got)
	}
	chain := tr.Roots[0]
	if chain.Waiters != 2 || chain.Children[0].Thread != 2 || chain.Children[0].Children[0].Thread != 3 ||
		chain.Children[0].Waiters != 1 {
		t.Errorf("chain %+v", chain)
	}
	if tr.Roots[2].Wait.Kind != snapshot.LockQueryCache || tr.Roots[2].Waiters != 1 {
		t.Errorf("unseen holder %+v", tr.Roots[2])
	}
	if n := len(tr.RootBlockers()); n != 2 {
		t.Errorf("%d root blockers; the unseen holder is not one", n)
	}
}

func TestLockTreeNilWhenNothingWaits(t *testing.T) {
	if BuildLockTree(&snapshot.Snapshot{}) != nil || BuildLockTree(&snapshot.Snapshot{Locks: &snapshot.Locks{}}) != nil {
		t.Fatal("a tree with no waits")
	}
}

// An open transaction in front of ALTER TABLE, SELECTs queued behind the
// ALTER: the root is the transaction, with and without the server's list.
func TestMetadataWaits(t *testing.T) {
	const mdl = "Waiting for table metadata lock"
	ps := []snapshot.Process{
		proc(1, "Sleep", 30, "", ""),
		proc(2, "Query", 20, mdl, "ALTER TABLE shop.acct ADD COLUMN note INT"),
		proc(3, "Query", 10, mdl, "SELECT bal FROM shop.acct WHERE id = 2"),
		proc(4, "Query", 9, mdl, "SELECT bal FROM acct WHERE id = 3"),
		proc(5, "Sleep", 100, "", ""),
	}
	ps[3].DB = "shop"
	trx := []snapshot.LockThread{{ID: 1, TrxAgeS: 35}, {ID: 5, TrxAgeS: -1}}
	holds := []MDLHold{
		{Thread: 1, Table: "shop.acct", Mode: "SHARED_READ"},
		{Thread: 2, Table: "shop.acct", Mode: "SHARED_UPGRADABLE"},
		{Thread: 2, Table: "shop.acct", Mode: "EXCLUSIVE", Pending: true},
	}
	for _, tc := range []struct {
		name     string
		holds    []MDLHold
		inferred bool
	}{{"listed", holds, false}, {"inferred", nil, true}} {
		s := &snapshot.Snapshot{Processlist: ps, Locks: &snapshot.Locks{Waits: MetadataWaits(ps, tc.holds, trx), Threads: trx}}
		tr := BuildLockTree(s)
		if got := rootIDs(tr); !slices.Equal(got, []int64{1}) {
			t.Fatalf("%s: roots %v, waits %+v", tc.name, got, s.Locks.Waits)
		}
		if tr.Roots[0].Waiters != 3 || tr.Roots[0].Children[0].Thread != 2 || tr.Inferred != tc.inferred {
			t.Errorf("%s: %+v inferred %v", tc.name, tr.Roots[0], tr.Inferred)
		}
	}
}

// A MyISAM table held by a long UPDATE; readers wait, one writer queued
// ahead of a later reader.
func TestTableWaits(t *testing.T) {
	const tl = "Waiting for table level lock"
	ps := []snapshot.Process{
		proc(1, "Query", 30, "Updating", "UPDATE shop.m SET v = v + 1"),
		proc(2, "Query", 20, tl, "SELECT * FROM shop.m"),
		proc(3, "Query", 15, tl, "INSERT INTO shop.m VALUES (1)"),
		proc(4, "Query", 5, tl, "SELECT * FROM shop.m WHERE id = 1"),
		proc(5, "Query", 5, tl, "SELECT * FROM shop.other"),
		proc(6, "Query", 8, "Waiting for query cache lock", "SELECT 1 FROM q"),
		proc(7, "Query", 0, "checking query cache for query", "SELECT 2 FROM q"),
	}
	waits := append(tableWaits(ps, nil), QueryCacheWaits(ps)...)
	got := map[int64]int64{}
	for _, e := range waits {
		got[e.Waiter] = e.Blocker
	}
	want := map[int64]int64{2: 1, 3: 1, 4: 3, 5: 0, 6: 7}
	for w, b := range want {
		if got[w] != b {
			t.Errorf("waiter %d: blocker %d, want %d", w, got[w], b)
		}
	}
	tr := BuildLockTree(&snapshot.Snapshot{Processlist: ps, Locks: &snapshot.Locks{Waits: waits}})
	if got := rootIDs(tr); !slices.Equal(got, []int64{1, 7, 0}) || tr.Roots[0].Waiters != 3 {
		t.Errorf("roots %v", got)
	}
}

func TestInnoDBRowWaits(t *testing.T) {
	tx := snapshot.InnoDBTransactions{Trx: []snapshot.InnoDBTrx{
		{ID: "10", State: "ACTIVE", ActiveSeconds: 60, RowLocks: 1, ThreadID: 4},
		{ID: "11", State: "ACTIVE", ActiveSeconds: 9, LockWait: true, LockWaitSeconds: 9, RowLocks: 1, ThreadID: 5},
		{ID: "12", State: "ACTIVE", ActiveSeconds: 80, ThreadID: 6}, // no row locks: a reader
	}}
	w := InnoDBRowWaits(tx)
	if len(w) != 1 || w[0].Waiter != 5 || w[0].Blocker != 4 || !w[0].Inferred || w[0].WaitS != 9 {
		t.Fatalf("%+v", w)
	}
	if th := InnoDBLockThreads(tx); len(th) != 3 || th[0].TrxAgeS != 60 {
		t.Errorf("%+v", th)
	}
}
