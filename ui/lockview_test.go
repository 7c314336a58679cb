package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/mytop-go/mytop-go/snapshot"
)

// lockFrame is a pile-up: thread 4711 idle in a transaction with 300 row
// waiters, thread 90 running an UPDATE on a MyISAM table with 3 readers
// behind it, and one query-cache waiter whose holder was not seen.
func lockFrame() *snapshot.Frame {
	s := &snapshot.Snapshot{Time: time.Date(2026, 12, 1, 14, 2, 17, 0, time.UTC), Locks: &snapshot.Locks{
		Threads: []snapshot.LockThread{{ID: 4711, TrxAgeS: 312, TrxState: "RUNNING", RowsLocked: 1}},
		Sources: map[snapshot.LockKind]string{snapshot.LockRow: "information_schema.INNODB_LOCK_WAITS",
			snapshot.LockTable: "processlist (inferred)"},
		Notes: []string{"metadata locks inferred from the processlist: METADATA_LOCK_INFO not loaded"},
	}}
	add := func(p snapshot.Process) { s.Processlist = append(s.Processlist, p) }
	add(snapshot.Process{ID: 4711, User: "app", Host: "10.0.0.12", Command: "Sleep", TimeMS: 300_000})
	add(snapshot.Process{ID: 90, User: "batch", Host: "10.0.0.9", Command: "Query", TimeMS: 48_000,
		State: "Updating", Info: "UPDATE shop.m SET v = v + 1"})
	for i := range 300 {
		id := int64(5000 + i)
		add(snapshot.Process{ID: id, User: "web", Command: "Query", TimeMS: 9_000, State: "Updating",
			Info: "UPDATE shop.acct SET bal = bal + 1 WHERE id = 1"})
		s.Locks.Waits = append(s.Locks.Waits, snapshot.LockWait{Waiter: id, Blocker: 4711, Kind: snapshot.LockRow,
			Object: "shop.acct PRIMARY", Mode: "X"})
	}
	for i := range 3 {
		id := int64(100 + i)
		add(snapshot.Process{ID: id, User: "web", Command: "Query", TimeMS: 5_000,
			State: "Waiting for table level lock", Info: "SELECT * FROM shop.m"})
		s.Locks.Waits = append(s.Locks.Waits, snapshot.LockWait{Waiter: id, Blocker: 90, Kind: snapshot.LockTable,
			Object: "shop.m", Inferred: true})
	}
	add(snapshot.Process{ID: 200, User: "web", Command: "Query", TimeMS: 1_000, State: "Waiting for query cache lock",
		Info: "SELECT 1"})
	s.Locks.Waits = append(s.Locks.Waits, snapshot.LockWait{Waiter: 200, Kind: snapshot.LockQueryCache,
		Object: "query cache", Inferred: true})
	return &snapshot.Frame{Snapshot: s, Mode: "LIVE"}
}

// At 80×24 the lock view still shows every root blocker, each with a
// count of what waits beneath it.
func TestLockViewShowsRootBlockersAt80x24(t *testing.T) {
	d := New(Options{Actions: &fakeActions{}})
	d.Update(lockFrame())
	press(d, 'L')
	screen := screenOf(d, 80, 24)
	mustContain(t, screen, "Locks  304 waiting, 2 root blockers", "4711", "idle in transaction for 300 s",
		"90 ", "UPDATE shop.m", "(not seen)", "more waiting", "METADATA_LOCK_INFO not loaded", "L/Esc back")
	lines := strings.Split(screen, "\n")
	first := -1
	for i, l := range lines {
		if strings.Contains(l, "4711") && first < 0 {
			first = i
		}
	}
	if first < 0 || !strings.Contains(lines[first], "300") {
		t.Errorf("root 4711 without its 300 waiters:\n%s", screen)
	}
	press(d, 'L')
	mustNotContain(t, screenOf(d, 80, 24), "root blockers")
}

// k on a root blocker asks y/n naming what it releases and warns that KILL
// QUERY leaves an idle transaction open; y sends the kill.
func TestLockViewKillsRootBlocker(t *testing.T) {
	a := &fakeActions{}
	d := New(Options{Actions: a})
	d.Update(lockFrame())
	press(d, 'L')
	screenOf(d, 80, 24)
	press(d, 'k')
	screen := screenOf(d, 80, 24)
	mustContain(t, screen, "KILL QUERY 4711: releases 300", "KILL QUERY leaves its")
	press(d, 'n')
	if len(a.kills) != 0 {
		t.Fatalf("killed after n: %v", a.kills)
	}
	press(d, 'K')
	mustContain(t, screenOf(d, 100, 30), "KILL CONNECTION 4711: releases 300 waiters", "rolls back its transaction, open 5m12s")
	press(d, 'y')
	if len(a.kills) != 1 || a.kills[0] != (killCall{4711, true}) {
		t.Fatalf("kills %v", a.kills)
	}
	// A waiter is no root blocker: nothing is killed.
	pressKeyN(d, 2)
	press(d, 'K')
	if d.modal != nil || len(a.kills) != 1 {
		t.Errorf("a waiter was offered for KILL: %v", a.kills)
	}
}

func pressKeyN(d *Dashboard, n int) {
	for range n {
		d.handleLockKey(keyDown())
	}
}

func TestLockViewReadOnlyAndReplayBindNoKill(t *testing.T) {
	for name, opts := range map[string]Options{"read-only": {Actions: &fakeActions{}, ReadOnly: true}, "replay": {}} {
		d := New(opts)
		d.Update(lockFrame())
		press(d, 'L')
		screenOf(d, 80, 24)
		press(d, 'K')
		if d.modal != nil {
			t.Errorf("%s: K opened %v", name, d.modal)
		}
		mustNotContain(t, screenOf(d, 80, 24), "k/K kill")
	}
}

func TestLockViewNothingWaits(t *testing.T) {
	d := New(Options{})
	d.Update(&snapshot.Frame{Snapshot: &snapshot.Snapshot{Time: time.Now()}})
	press(d, 'L')
	mustContain(t, screenOf(d, 80, 24), "nothing waits for a lock")
}

func keyDown() *tcell.EventKey { return tcell.NewEventKey(tcell.KeyDown, 0, tcell.ModNone) }

// threadlessFrame: 12 waiters behind an XA PREPARED transaction whose
// session ended, and 4 guessed to wait behind thread 70 (inferred from the
// InnoDB status) which modified 1,200 rows.
func threadlessFrame() *snapshot.Frame {
	at := time.Date(2026, 12, 1, 14, 2, 17, 0, time.UTC)
	s := &snapshot.Snapshot{Time: at, Locks: &snapshot.Locks{
		Threads: []snapshot.LockThread{{TrxID: "5123", TrxAgeS: 95, TrxState: "PREPARED", RowsModified: 3,
			XID: "'pay-77'"}, {ID: 70, TrxID: "5200", TrxAgeS: 40, RowsModified: 1200, RowsLocked: 1200}},
		Sources: map[snapshot.LockKind]string{snapshot.LockRow: "SHOW ENGINE INNODB STATUS (partly inferred)"},
		At:      at.Add(300 * time.Millisecond),
		ReadAt:  map[snapshot.LockKind]time.Time{snapshot.LockRow: at.Add(100 * time.Millisecond)},
	}}
	add := func(p snapshot.Process) { s.Processlist = append(s.Processlist, p) }
	add(snapshot.Process{ID: 70, User: "batch", Host: "10.0.0.9", Command: "Sleep", TimeMS: 39_000})
	for i := range 16 {
		id := int64(300 + i)
		add(snapshot.Process{ID: id, User: "web", Command: "Query", TimeMS: 9_000, State: "Updating",
			Info: "UPDATE shop.acct SET bal = bal + 1 WHERE id = 1"})
		w := snapshot.LockWait{Waiter: id, BlockerTrx: "5123", Kind: snapshot.LockRow, Object: "shop.acct PRIMARY",
			Record: "space 5 page 3 heap 2"}
		if i >= 12 {
			w = snapshot.LockWait{Waiter: id, Blocker: 70, Kind: snapshot.LockRow, Object: "shop.acct PRIMARY",
				Record: "space 5 page 3 heap 3", Inferred: true}
		}
		s.Locks.Waits = append(s.Locks.Waits, w)
	}
	return &snapshot.Frame{Snapshot: s, Mode: "LIVE"}
}

// A holder with no connection shows as its transaction, with what ends it;
// k on it kills nothing and says so. A root whose waiters are only guessed
// is offered for KILL without "releases", with what its rollback holds.
func TestLockViewThreadlessHolderAndGuessedRoot(t *testing.T) {
	a := &fakeActions{}
	d := New(Options{Actions: a})
	d.Update(threadlessFrame())
	press(d, 'L')
	screen := screenOf(d, 140, 30)
	mustContain(t, screen, "trx 5123", "(no conn.)", "XA PREPARED transaction 5123 xid 'pay-77'",
		"row: SHOW ENGINE INNODB STATUS (partly inferred) (0.2 s old)")
	press(d, 'K')
	screen = screenOf(d, 140, 30)
	mustContain(t, screen, "transaction 5123 has no connection", "XA ROLLBACK 'pay-77' (or XA COMMIT 'pay-77')")
	mustNotContain(t, screen, "KILL")
	press(d, 'y')
	if len(a.kills) != 0 {
		t.Fatalf("killed %v for a transaction with no thread", a.kills)
	}
	d.modal = nil
	for range 20 { // the second root, thread 70, after the first's 12 waiters
		if r := d.locks.selected(); r != nil && r.root && r.node.Thread == 70 {
			break
		}
		d.handleLockKey(keyDown())
	}
	press(d, 'K')
	screen = screenOf(d, 140, 30)
	mustContain(t, screen, "KILL CONNECTION 70", "4 waiters are guessed to wait behind it", "1,200 rows modified",
		"keeps its locks until it ends")
	mustNotContain(t, screen, "releases")
	press(d, 'y')
	if len(a.kills) != 1 || a.kills[0] != (killCall{70, true}) {
		t.Fatalf("kills %v", a.kills)
	}
}
