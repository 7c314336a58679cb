package analyzers

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// semisyncPair starts a source with semi-sync enabled (a short ack timeout)
// and a semi-sync replica of it, and waits until the source counts the
// replica as a semi-sync client.
func semisyncPair(t *testing.T) (src, replica *testdb.Server) {
	t.Helper()
	src = testdb.Start(t, "--server-id=1", "--log-bin=binlog", "--rpl-semi-sync-master-enabled=ON",
		"--rpl-semi-sync-master-timeout=500")
	replica = testdb.Start(t, "--server-id=2", "--rpl-semi-sync-slave-enabled=ON")
	src.Exec(t, "CREATE DATABASE shop", "CREATE TABLE shop.orders (id INT AUTO_INCREMENT PRIMARY KEY, item INT) ENGINE=InnoDB")
	replica.Exec(t, changeSource("", src), "START SLAVE")
	deadline := time.Now().Add(30 * time.Second)
	for {
		var name, clients string
		if err := src.DB(t).QueryRow("SHOW GLOBAL STATUS LIKE 'Rpl_semi_sync_master_clients'").Scan(&name, &clients); err == nil && clients == "1" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the replica never connected with semi-sync (clients %q)", clients)
		}
		time.Sleep(200 * time.Millisecond)
	}
	waitRows(t, replica, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'shop'", 1)
	return src, replica
}

// orderWriter commits one INSERT every pause on src.
func orderWriter(w *workload, src *testdb.Server, pause time.Duration) {
	db := src.DB(w.t)
	db.SetMaxOpenConns(1)
	w.clients(db, 1, pause, func(_ *rand.Rand) string { return "INSERT INTO shop.orders (item) VALUES (1)" })
}

func TestIntegrationSemisyncFallback(t *testing.T) {
	t.Parallel()
	src, replica := semisyncPair(t)
	w := newWorkload(t)
	orderWriter(w, src, 100*time.Millisecond)
	// The replica stops receiving: the next commit waits 0.5 s for an
	// acknowledgement that never comes, and the source falls back to async.
	_, got, after := watch(t, src, within(60*time.Second), load(w, func() { replica.Exec(t, "STOP SLAVE") }),
		onset(idFinding(IDSemisyncFallback, snapshot.Warning))).result()
	t.Logf("semisync_fallback after %.1f s (the source's timeout is 0.5 s)", after.Seconds())
	if after > 10*time.Second {
		t.Errorf("named %.1f s after onset, want within 10 s", after.Seconds())
	}
	wantEvidence(t, got, "Rpl_semi_sync_master_status=OFF while rpl_semi_sync_master_enabled=ON",
		"Rpl_semi_sync_master_no_tx", "rpl_semi_sync_master_timeout=500 ms")
	if !strings.Contains(got.Title, "commits/s return without") {
		t.Logf("title without a commit rate: %s", got.Title)
	}
}

func TestIntegrationSemisyncAcknowledgedIsHealthy(t *testing.T) {
	t.Parallel()
	src, _ := semisyncPair(t)
	w := newWorkload(t)
	frames := watch(t, src, load(w, func() { orderWriter(w, src, 50*time.Millisecond) }), runFor(20*time.Second)).frames
	quietBut(t, dropWarmUp(frames), IDSemisyncFallback)
	last := frames[len(frames)-1]
	yes, _ := last.Rates.Rate("Rpl_semi_sync_master_yes_tx")
	t.Logf("Rpl_semi_sync_master_status %s, yes_tx %.0f/s at the end", last.Snapshot.Status["Rpl_semi_sync_master_status"], yes)
	if yes < 1 {
		t.Errorf("no acknowledged commits: %.1f/s", yes)
	}
}
