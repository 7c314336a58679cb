package parse

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

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
	want := map[int64]snapshot.LockWait{
		10: {Waiter: 10, BlockerTrx: "32", Kind: snapshot.LockRow, Object: "shop.acct PRIMARY", Record: "space 5 page 3 heap 4", WaitS: 9},
		8:  {Waiter: 8, Blocker: 5, Kind: snapshot.LockRow, Object: "shop.acct PRIMARY", Record: "space 5 page 3 heap 2", WaitS: 9},
		9: {Waiter: 9, Blocker: 7, Kind: snapshot.LockRow, Object: "shop.acct PRIMARY", Record: "space 5 page 3 heap 3", WaitS: 9,
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
	var xa *snapshot.LockThread
	for i := range threads {
		if threads[i].TrxID == "32" {
			xa = &threads[i]
		}
	}
	if xa == nil || xa.ID != 0 || !xa.Prepared() || xa.TrxAgeS != 11 || xa.RowsModified != 1 {
		t.Fatalf("XA transaction %+v in %+v", xa, threads)
	}
	xa.XID = "'xid1'"
	s := &snapshot.Snapshot{Locks: &snapshot.Locks{Waits: waits, Threads: threads}, Processlist: []snapshot.Process{
		{ID: 5, Command: "Query", TimeMS: 11000, State: "User sleep", Info: "select sleep(60)"},
		{ID: 7, Command: "Query", TimeMS: 11000, State: "User sleep", Info: "select sleep(60)"},
	}}
	tr := infer.BuildLockTree(s)
	if tr == nil || len(tr.Roots) != 3 {
		t.Fatalf("tree %+v", tr)
	}
	rb := tr.RootBlockers()
	if len(rb) != 3 {
		t.Fatalf("root blockers %+v", rb)
	}
	byTrx := map[string]snapshot.RootBlocker{}
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
	byWaiter := map[int64]snapshot.LockWait{}
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
	tr := infer.BuildLockTree(&snapshot.Snapshot{Locks: &snapshot.Locks{Waits: waits, Threads: threads}})
	if len(tr.Roots) != 3 {
		t.Fatalf("roots %d, want the XA transaction and one unseen holder per record", len(tr.Roots))
	}
	got := InnoDBHolderCandidates(threads, waits)
	if !slices.Equal(got, []string{"thread 7", "transaction 32 (no connection)", "thread 5"}) {
		t.Errorf("candidates %q", got)
	}
}
