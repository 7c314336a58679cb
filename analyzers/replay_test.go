package analyzers

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/recording/importers"
	"github.com/mytop-go/mytop-go/snapshot"
)

// TestReplayCapturedIncident replays a real capture (testdata/tablelock-bpmiss:
// MariaDB 10.11 with a 6M buffer pool, 12 mariadb-slap clients on MyISAM and 4
// clients reading random keys of a 154 MB InnoDB table, recorded by the
// reference incident's shell loops) through the importer and the engine.
func TestReplayCapturedIncident(t *testing.T) {
	capture, err := importers.Import("testdata/tablelock-bpmiss", importers.Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if len(capture.Sessions) != 1 {
		t.Fatalf("%d sessions", len(capture.Sessions))
	}
	b := pipeline.NewBuilder("REPLAY", NewEngine(DefaultConfig()))
	raised := map[string]snapshot.Finding{}
	var last *snapshot.Frame
	for _, s := range capture.Sessions[0].Snapshots {
		f := b.Add(s)
		last = f
		for _, x := range f.Findings {
			if _, seen := raised[x.ID]; !seen {
				raised[x.ID] = x
				t.Logf("%s %s %s: %s %v", f.Time().Format("15:04:05"), x.ID, x.Severity, x.Title, x.Evidence)
			}
		}
	}
	// The load starts at 04:38:30; both must be named within seconds, with numbers.
	wants := map[string][]string{
		IDTableLockContention: {"of table locks immediate this interval", "Table_locks_waited"},
		IDBufferPoolMiss:      {"Innodb_buffer_pool_reads", "Innodb_buffer_pool_read_requests", "warming up"},
	}
	deadline := time.Date(2026, 12, 1, 4, 38, 40, 0, time.UTC)
	for id, lines := range wants {
		x, ok := raised[id]
		if !ok {
			t.Errorf("%s not raised", id)
			continue
		}
		if x.Since.After(deadline) {
			t.Errorf("%s raised only since %v", id, x.Since)
		}
		mustContain(t, x, lines...)
	}
	for _, id := range []string{IDQueryCacheContention, IDFullScanUpdate, IDSwapping} {
		if x, ok := raised[id]; ok {
			t.Errorf("%s raised: %s", id, x.Title)
		}
	}
	// Shell loops capture no InnoDB status and no replica status: say so.
	for _, id := range []string{IDLongTransaction, IDInnoDBThreadQueue, IDReplicationLag} {
		if last.NotApplicable[id] == "" {
			t.Errorf("%s not listed as not applicable: %v", id, last.NotApplicable)
		}
	}
	t.Logf("not applicable: %v", last.NotApplicable)
}
