package infer

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestRowWaitSetKeepsHoldersOverQueuedRequests(t *testing.T) {
	// MariaDB lists 25 behind the holder 23 and behind 24 queued before it.
	var set RowWaitSet
	set.Add("24", "23", "", snapshot.RowLockObject{Object: "shop.acct"})
	set.Add("25", "23", "", snapshot.RowLockObject{Object: "shop.acct"})
	set.Add("25", "24", "", snapshot.RowLockObject{Object: "shop.acct"})
	thread := map[string]int64{"23": 4, "24": 5, "25": 6}
	got := set.Edges(RowWaitThreads{Thread: thread, WaitS: map[int64]int64{5: 23, 6: 22}}, nil)
	want := []snapshot.LockWait{{Waiter: 5, Blocker: 4, Kind: snapshot.LockRow, Object: "shop.acct", WaitS: 23},
		{Waiter: 6, Blocker: 4, Kind: snapshot.LockRow, Object: "shop.acct", WaitS: 22}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("edges %+v", got)
	}
}

// A holder with no thread (an XA PREPARED transaction, trx 30) is an edge to
// its transaction, not dropped and not moved to another session.
func TestRowWaitSetKeepsThreadlessHolder(t *testing.T) {
	var set RowWaitSet
	set.Add("31", "30", "31:5:3:2", snapshot.RowLockObject{})
	set.Add("32", "30", "32:5:3:2", snapshot.RowLockObject{})
	set.Add("32", "31", "32:5:3:2", snapshot.RowLockObject{})
	got := set.Edges(RowWaitThreads{Thread: map[string]int64{"31": 7, "32": 8}, Threadless: map[string]bool{"30": true}},
		map[string]snapshot.RowLockObject{"31:5:3:2": {Object: "shop.acct PRIMARY", Mode: "X", Record: "1"}})
	if len(got) != 2 || got[0].BlockerTrx != "30" || got[0].Blocker != 0 || got[0].Record != "1" ||
		got[1].Waiter != 8 || got[1].BlockerTrx != "30" {
		t.Errorf("edges %+v", got)
	}
	// Unknown to both maps: dropped, as before.
	if e := set.Edges(RowWaitThreads{Thread: map[string]int64{"31": 7, "32": 8}}, nil); len(e) != 1 || e[0].Waiter != 8 || e[0].Blocker != 7 {
		t.Errorf("edges without the threadless map %+v", e)
	}
}
