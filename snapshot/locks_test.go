package snapshot

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestStatementTables(t *testing.T) {
	cases := []struct{ q, db, want string }{
		{"SELECT bal FROM shop.acct WHERE id = 1", "", "shop.acct"},
		{"select * from acct a join `shop`.`items` i on a.id = i.id", "shop", "shop.acct shop.items"},
		{"UPDATE LOW_PRIORITY t SET v = 1", "db", "db.t"},
		{"DELETE QUICK FROM shop.t WHERE c = 7", "", "shop.t"},
		{"INSERT INTO shop.o (a) SELECT a FROM shop.i", "", "shop.o shop.i"},
		{"ALTER TABLE shop.acct ADD COLUMN note INT", "", "shop.acct"},
		{"LOCK TABLES a WRITE, b READ", "x", "x.a x.b"},
		{"DROP TABLE IF EXISTS a, b", "x", "x.a x.b"},
		{"CREATE INDEX k ON shop.t (c)", "", "shop.t"},
		{"SELECT 1", "", ""},
		{"SELECT * FROM (SELECT 1) d", "", ""},
		{"/* app */ SELECT c FROM t WHERE id IN (SELECT id FROM u)", "d", "d.t d.u"},
	}
	for _, c := range cases {
		got := strings.Join(statementTables(c.q, c.db), " ")
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.q, got, c.want)
		}
	}
}

func proc(id int64, cmd string, secs int64, state, info string) Process {
	return Process{ID: id, User: "app", Command: cmd, TimeMS: secs * 1000, State: state, Info: info}
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
	s := &Snapshot{Processlist: []Process{proc(1, "Sleep", 40, "", "")}, Locks: &Locks{
		Threads: []LockThread{{ID: 1, TrxAgeS: 50}}}}
	for w := int64(2); w <= 11; w++ {
		s.Processlist = append(s.Processlist, proc(w, "Query", 5, "Updating", "UPDATE t SET v=1 WHERE id=1"))
		s.Locks.Waits = append(s.Locks.Waits, LockWait{Waiter: w, Blocker: 1, Kind: LockRow})
		for ahead := int64(2); ahead < w; ahead++ {
			s.Locks.Waits = append(s.Locks.Waits, LockWait{Waiter: w, Blocker: ahead, Kind: LockRow})
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
	rb := tr.RootBlockers(LockRow)
	if len(rb) != 1 || rb[0].Thread != 1 || rb[0].AgeS != 50 || rb[0].Waiters != 10 || rb[0].User != "app" {
		t.Errorf("root blockers %+v", rb)
	}
	if len(tr.RootBlockers(LockTable)) != 0 {
		t.Error("a row-lock root named for table locks")
	}
}

func TestLockTreeChainAndCycle(t *testing.T) {
	s := &Snapshot{Locks: &Locks{Waits: []LockWait{
		{Waiter: 3, Blocker: 2, Kind: LockRow}, {Waiter: 2, Blocker: 1, Kind: LockRow},
		// a deadlock not yet broken: 7 and 8 wait for each other, 9 for 8
		{Waiter: 7, Blocker: 8, Kind: LockRow}, {Waiter: 8, Blocker: 7, Kind: LockRow},
		{Waiter: 9, Blocker: 8, Kind: LockRow},
		// nobody seen holds the query cache
		{Waiter: 20, Kind: LockQueryCache, Object: "query cache"},
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
	if tr.Roots[2].Wait.Kind != LockQueryCache || tr.Roots[2].Waiters != 1 {
		t.Errorf("unseen holder %+v", tr.Roots[2])
	}
	if n := len(tr.RootBlockers()); n != 2 {
		t.Errorf("%d root blockers; the unseen holder is not one", n)
	}
}

func TestLockTreeNilWhenNothingWaits(t *testing.T) {
	if BuildLockTree(&Snapshot{}) != nil || BuildLockTree(&Snapshot{Locks: &Locks{}}) != nil {
		t.Fatal("a tree with no waits")
	}
}

// An open transaction in front of ALTER TABLE, SELECTs queued behind the
// ALTER: the root is the transaction, with and without the server's list.
func TestMetadataWaits(t *testing.T) {
	const mdl = "Waiting for table metadata lock"
	ps := []Process{
		proc(1, "Sleep", 30, "", ""),
		proc(2, "Query", 20, mdl, "ALTER TABLE shop.acct ADD COLUMN note INT"),
		proc(3, "Query", 10, mdl, "SELECT bal FROM shop.acct WHERE id = 2"),
		proc(4, "Query", 9, mdl, "SELECT bal FROM acct WHERE id = 3"),
		proc(5, "Sleep", 100, "", ""),
	}
	ps[3].DB = "shop"
	trx := []LockThread{{ID: 1, TrxAgeS: 35}, {ID: 5, TrxAgeS: -1}}
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
		s := &Snapshot{Processlist: ps, Locks: &Locks{Waits: MetadataWaits(ps, tc.holds, trx), Threads: trx}}
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
	ps := []Process{
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
	tr := BuildLockTree(&Snapshot{Processlist: ps, Locks: &Locks{Waits: waits}})
	if got := rootIDs(tr); !slices.Equal(got, []int64{1, 7, 0}) || tr.Roots[0].Waiters != 3 {
		t.Errorf("roots %v", got)
	}
}

func TestInnoDBRowWaits(t *testing.T) {
	tx := InnoDBTransactions{Trx: []InnoDBTrx{
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

func TestInnoDBLockWaitsFromRawStatus(t *testing.T) {
	raw, err := os.ReadFile("testdata/innodb-status/mariadb-10.11-lockwait-deadlock.txt")
	if err != nil {
		t.Fatal(err)
	}
	waits, threads, truncated := InnoDBLockWaits(string(raw))
	if len(waits) != 1 || truncated {
		t.Fatalf("waits %+v truncated %v", waits, truncated)
	}
	w := waits[0]
	// The record's DB_TRX_ID (0x17) is the holder's transaction 23: exact.
	if w.Waiter != 6 || w.Blocker != 5 || w.Object != "t.a PRIMARY" || w.WaitS != 7 || w.Inferred ||
		w.Record != "space 5 page 3 heap 2" {
		t.Errorf("%+v", w)
	}
	if len(threads) != 2 || threads[1].ID != 5 || threads[1].TrxAgeS != 8 || threads[1].RowsModified != 1 {
		t.Errorf("threads %+v", threads)
	}
}

// Three hot rows, captured on MariaDB 10.11: row 1 held by thread 5 (an
// UPDATE: the record names its transaction), row 3 by an XA PREPARED
// transaction whose session ended (no thread), row 2 by thread 7 (SELECT
// ... FOR UPDATE: the record names an old, committed transaction).
func TestInnoDBLockWaitsPerRecord(t *testing.T) {
	raw, err := os.ReadFile("testdata/lock-status/mariadb-10.11-two-rows-xa.txt")
	if err != nil {
		t.Fatal(err)
	}
	waits, threads, _ := InnoDBLockWaits(string(raw))
	want := map[int64]LockWait{
		10: {Waiter: 10, BlockerTrx: "32", Kind: LockRow, Object: "shop.acct PRIMARY", Record: "space 5 page 3 heap 4", WaitS: 9},
		8:  {Waiter: 8, Blocker: 5, Kind: LockRow, Object: "shop.acct PRIMARY", Record: "space 5 page 3 heap 2", WaitS: 9},
		9: {Waiter: 9, Blocker: 7, Kind: LockRow, Object: "shop.acct PRIMARY", Record: "space 5 page 3 heap 3", WaitS: 9,
			Inferred: true},
	}
	if len(waits) != 3 {
		t.Fatalf("waits %+v", waits)
	}
	for _, w := range waits {
		if w != want[w.Waiter] {
			t.Errorf("got  %+v\nwant %+v", w, want[w.Waiter])
		}
	}
	var xa *LockThread
	for i := range threads {
		if threads[i].TrxID == "32" {
			xa = &threads[i]
		}
	}
	if xa == nil || xa.ID != 0 || !xa.Prepared() || xa.TrxAgeS != 11 || xa.RowsModified != 1 {
		t.Fatalf("XA transaction %+v in %+v", xa, threads)
	}
	xa.XID = "'xid1'"
	s := &Snapshot{Locks: &Locks{Waits: waits, Threads: threads}, Processlist: []Process{
		{ID: 5, Command: "Query", TimeMS: 11000, State: "User sleep", Info: "select sleep(60)"},
		{ID: 7, Command: "Query", TimeMS: 11000, State: "User sleep", Info: "select sleep(60)"},
	}}
	tr := BuildLockTree(s)
	if tr == nil || len(tr.Roots) != 3 {
		t.Fatalf("tree %+v", tr)
	}
	rb := tr.RootBlockers()
	if len(rb) != 3 {
		t.Fatalf("root blockers %+v", rb)
	}
	byTrx := map[string]RootBlocker{}
	for _, r := range rb {
		byTrx[fmt.Sprintf("%d %s", r.Thread, r.TrxID)] = r
	}
	if r := byTrx["0 32"]; r.Ends != "XA ROLLBACK 'xid1' (or XA COMMIT 'xid1')" || r.Guessed != 0 ||
		!strings.Contains(r.Statement, "XA PREPARED transaction 32 xid 'xid1', open 11 s, no connection") {
		t.Errorf("XA root %+v", r)
	}
	if r := byTrx["7 "]; r.Guessed != 1 || r.Waiters != 1 {
		t.Errorf("inferred root %+v", r)
	}
	if r := byTrx["5 "]; r.Guessed != 0 || r.Waiters != 1 {
		t.Errorf("exact root %+v", r)
	}
}

// When two holders locked rows without changing them, the records name
// neither: each record keeps its own unseen holder (never both queues under
// one guessed thread), and the candidates are listed for the note.
func TestInnoDBLockWaitsTwoUnnamedHolders(t *testing.T) {
	raw, err := os.ReadFile("testdata/lock-status/mariadb-10.11-two-rows-xa.txt")
	if err != nil {
		t.Fatal(err)
	}
	// Row 1's record now names an old, committed transaction (0x13 = 19).
	text := strings.Replace(string(raw), "hex 00000000001f;", "hex 000000000013;", 1)
	waits, threads, _ := InnoDBLockWaits(text)
	byWaiter := map[int64]LockWait{}
	for _, w := range waits {
		byWaiter[w.Waiter] = w
	}
	if w := byWaiter[10]; w.BlockerTrx != "32" || w.Inferred {
		t.Errorf("XA row: %+v", w)
	}
	for _, id := range []int64{8, 9} {
		if w := byWaiter[id]; w.Blocker != 0 || w.BlockerTrx != "" || !w.Inferred || w.Record == "" {
			t.Errorf("waiter %d: %+v, want an unseen holder of its own record", id, w)
		}
	}
	tr := BuildLockTree(&Snapshot{Locks: &Locks{Waits: waits, Threads: threads}})
	if len(tr.Roots) != 3 {
		t.Fatalf("roots %d, want the XA transaction and one unseen holder per record", len(tr.Roots))
	}
	got := InnoDBHolderCandidates(threads, waits)
	if !slices.Equal(got, []string{"thread 7", "transaction 32 (no connection)", "thread 5"}) {
		t.Errorf("candidates %q", got)
	}
}
