package importers_test

import (
	"slices"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/analyzers"
	"github.com/mytop-go/mytop-go/recording/importers"
)

// The pt-stalk capture of a row-lock pile-up (ptstalk_locks_test.go):
// connection 4 idle in its transaction, 5-8 waiting on its row. The report
// names 4 as the root blocker of row_lock_waits with its four waiters, and
// the wait as caused by the long transaction, as a live run does. Nothing
// else: the waiting UPDATEs are not full scans, and pt-stalk's own lock-wait
// joins make the capture's only on-disk temporary tables.
func TestPtStalkLockWaitsReport(t *testing.T) {
	capture, err := importers.Import("testdata/ptstalk-lockwaits", importers.Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	r := reportOf(t, capture.Sessions[0])
	e, ok := episode(r, analyzers.IDRowLockWaits)
	if !ok {
		t.Fatalf("no row_lock_waits; findings %+v", r.Findings)
	}
	if len(e.RootBlockers) != 1 || e.RootBlockers[0].Thread != 4 || e.RootBlockers[0].Waiters != 4 {
		t.Errorf("root_blockers %+v", e.RootBlockers)
	}
	if !slices.Contains(e.CausedBy, analyzers.IDLongTransaction) {
		t.Errorf("caused_by %v", e.CausedBy)
	}
	for _, id := range []string{analyzers.IDFullScanUpdate, analyzers.IDTmpDiskTables} {
		if e, ok := episode(r, id); ok {
			t.Errorf("%s raised on the capture: %s", id, e.Title)
		}
	}
}
