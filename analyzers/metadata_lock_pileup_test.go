package analyzers

import (
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestMetadataLockPileup(t *testing.T) {
	alter := query(50, 20, mdlState, "ALTER TABLE orders ADD COLUMN x INT")
	sel := query(51, 15, mdlState, "SELECT * FROM orders WHERE id = 1")
	holder := sleeping(40, "app")
	runTimelines(t, IDMetadataLockPileup, DefaultConfig(), []timelineCase{
		{"DDL waits alone", series(7, procs(alter)), "....WWW"},
		{"DDL with queries queued behind it", series(6, procs(alter, sel)), "....CC"},
		{"flapping waiter never raises", series(10, at([]int{0, 1, 2, 4, 5, 6, 8, 9}, procs(alter))), ".........."},
		{"no waiters", series(5, procs(query(52, 1, "Sending data", "SELECT 1 FROM orders"))), "....."},
	})
	snaps := series(5, procs(alter, sel, holder), trx(snapshot.InnoDBTrx{ID: "1", ActiveSeconds: 600, ThreadID: 40}))
	f := lastFinding(t, DefaultConfig(), snaps, IDMetadataLockPileup)
	mustContain(t, f, "2 threads wait for a table metadata lock", "(1 DDL), oldest 20 s", "thread 50",
		"alter table orders", "probable holder: thread 40 app@10.0.0.31", "lock_wait_timeout")
	if len(f.Threads) != 3 || f.Threads[2] != 40 {
		t.Errorf("threads %v", f.Threads)
	}
}
