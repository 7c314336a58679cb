package analyzers

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// emailLookupIncident loads app.users with rows users (no index on email),
// starts 4 clients looking users up by email once the monitor samples, and
// watches for full_scan_select for d.
func emailLookupIncident(t *testing.T, rows int, d time.Duration) (*snapshot.Finding, time.Duration, int) {
	t.Helper()
	testdb.Heavy(t)
	srv := testdb.Start(t)
	srv.ExecHeavy(t, "CREATE DATABASE app",
		"CREATE TABLE app.users (id INT PRIMARY KEY, email VARCHAR(100), name VARCHAR(50))",
		fmt.Sprintf("INSERT INTO app.users SELECT seq, CONCAT('u', seq, '@example.com'), CONCAT('user ', seq) "+
			"FROM seq.seq_1_to_%d", rows))
	db := srv.DB(t)
	w := newWorkload(t)
	cfg := DefaultConfig()
	cfg.WarmupSeconds = 0
	var got *snapshot.Finding
	var after time.Duration
	frames := watch(t, srv, within(d), judged(cfg), until(func(f *snapshot.Frame) bool {
		if w.began.IsZero() {
			w.clients(db, 4, 0, func(r *rand.Rand) string {
				return fmt.Sprintf("SELECT id, name FROM app.users WHERE email = 'u%d@example.com'", 1+r.IntN(rows))
			})
			w.began = time.Now()
			return false
		}
		if got = findingIn(f, IDFullScanSelect); got != nil {
			after = f.Snapshot.Time.Sub(w.began)
			return true
		}
		return false
	})).frames
	return got, after, len(frames)
}

// Four clients looking users up by email in a 200,000-row table with no
// index on email: named within 10 s, with the table and the index to add.
func TestIntegrationFullScanSelect(t *testing.T) {
	t.Parallel()
	f, after, _ := emailLookupIncident(t, 200000, 30*time.Second)
	if f == nil {
		t.Fatalf("no %s", IDFullScanSelect)
	}
	namedInTime(t, f, after)
	mustContain(t, *f, "SELECT on app.users reads the whole table", "type ALL", "an index on app.users(email)")
}

// The twin: the same lookups on a table of 50 rows, where a scan is the
// right plan: quiet.
func TestIntegrationFrequentSelectSmallTableIsQuiet(t *testing.T) {
	t.Parallel()
	f, _, n := emailLookupIncident(t, 50, 15*time.Second)
	if f != nil {
		t.Errorf("a 50-row table raised %s: %s %v", f.ID, f.Title, f.Evidence)
	}
	if n < 10 {
		t.Errorf("only %d frames watched", n)
	}
}
