package analyzers

import (
	"fmt"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// hll makes the history list length grow by perSec until snapshot stop, then stay.
func hll(base, perSec float64, stop int) edit {
	return func(i int, s *snapshot.Snapshot) {
		s.Status[historyName] = fmt.Sprint(int64(base + perSec*float64(min(i, stop))))
	}
}

func TestPurgeLag(t *testing.T) {
	noHLL := func(_ int, s *snapshot.Snapshot) { s.InnoDB = nil }
	runTimelines(t, IDPurgeLag, DefaultConfig(), []timelineCase{
		{"over 50,000 for 2 minutes and growing minute over minute", series(130, hll(60000, 200, 1e6)),
			marks(120, "W", 10)},
		{"over 100,000 and growing is critical", series(140, hll(60000, 300, 1e6)), marks(120, "W", 14) + "CCCCCC"},
		{"an old read view explains growth past 50,000 at once", series(130, hll(10000, 400, 1e6),
			trx(snapshot.InnoDBTrx{ID: "9", ActiveSeconds: 60, ThreadID: 4, ReadViewSees: 8})), marks(120, "W", 10)},
		{"a burst that purge works off is quiet", series(130, hll(0, 400, 1e6)), marks(130, "", 0)},
		{"raised once by a batch, then flat: quiet", series(150, hll(40000, 200, 60)), marks(150, "", 0)},
		{"growing but short", series(130, hll(1000, 200, 1e6)), marks(130, "", 0)},
		{"a restart starts the minutes again", series(160, hll(60000, 200, 1e6), restartAt(30)), marks(150, "W", 10)},
		{"no history list length in this source", series(2, noHLL), "NN"},
	})
}

// TestPurgeLagMinGrowth is the healthy twin's trap: a length high at rest
// that drifts up by a few entries between purge rounds "grew at each step".
func TestPurgeLagMinGrowth(t *testing.T) {
	steps := func(base int64, adds ...int64) edit { // the length after each 10-s step
		return func(i int, s *snapshot.Snapshot) {
			v := base
			for k, a := range adds {
				if i >= 10*(k+1) {
					v += a
				}
			}
			s.Status[historyName] = fmt.Sprint(v)
		}
	}
	c := DefaultConfig()
	c.PurgeLagWarn, c.PurgeLagCrit, c.PurgeLagStep = 5000, 1e9, 10*time.Second
	runTimelines(t, IDPurgeLag, c, []timelineCase{
		{"+10 then +80 at 7,400 (measured, healthy)", series(25, steps(7400, 10, 80)), marks(25, "", 0)},
		{"+150 then +250 in 10-s steps: 15-25/s", series(25, steps(7400, 150, 250)), marks(25, "", 0)},
		{"+300 then +400 in 10-s steps: 30-40/s", series(25, steps(7400, 300, 400)), marks(20, "W", 5)},
	})
	runTimelines(t, IDPurgeLag, DefaultConfig(), []timelineCase{
		{"over 50,000, drifting 5/s", series(130, hll(60000, 5, 1e6)), marks(130, "", 0)},
		{"over 50,000, growing 25/s", series(130, hll(60000, 25, 1e6)), marks(120, "W", 10)},
	})
}

func TestPurgeLagNamesTheOldestReadView(t *testing.T) {
	snaps := series(125, hll(60000, 300, 1e6),
		trx(snapshot.InnoDBTrx{ID: "982100", ActiveSeconds: 900, ThreadID: 51, Query: "UPDATE shop.t SET v = 1 WHERE id = 9"}),
		trx(snapshot.InnoDBTrx{ID: "971640", ActiveSeconds: 400, ThreadID: 44, ReadViewSees: 971635}),
		procs(snapshot.Process{ID: 44, User: "report", Host: "10.0.0.9:5000", Command: "Sleep", TimeMS: 380000},
			sleeping(51, "app")),
		func(_ int, s *snapshot.Snapshot) {
			s.InnoDB.Rows = snapshot.InnoDBRows{Present: true, ReadViewsOpen: 1}
		},
		vars("innodb_purge_threads", "4"))
	f := lastFinding(t, DefaultConfig(), snaps, IDPurgeLag)
	mustContain(t, f, "purge lags: history list length 97,200, up 36,000 in 2m0s; oldest read view: trx 971640, ACTIVE 524 s",
		"history list length 61,200 (2m0s ago) → 79,200 (1m0s ago) → 97,200 now",
		"holding purge back: trx 971640, ACTIVE 524 s, its read view sees only trx < 971635, thread 44 report@10.0.0.9",
		"idle (Sleep)", "1 read views open inside InnoDB", "innodb_purge_threads=4", "Commit or roll back trx 971640")
	if len(f.Threads) != 1 || f.Threads[0] != 44 {
		t.Errorf("threads %v, want the read view's connection 44", f.Threads)
	}
	// Without any transaction listed, purge itself is behind.
	f = lastFinding(t, DefaultConfig(), series(125, hll(60000, 300, 1e6), emptyTrxList), IDPurgeLag)
	mustContain(t, f, "purge itself is not keeping up", "raise innodb_purge_threads")
}
