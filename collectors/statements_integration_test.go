package collectors

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
)

func TestLiveNoIndexUsedFromPerformanceSchema(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--performance-schema=ON", "--performance-schema-consumer-events-statements-current=ON")
	srv.Exec(t, "CREATE DATABASE ps", "CREATE TABLE ps.b (id INT PRIMARY KEY AUTO_INCREMENT, c INT, v INT)",
		"INSERT INTO ps.b (c, v) SELECT seq % 100, 0 FROM ps.seq_1_to_3000", "CREATE TABLE ps.r LIKE ps.b",
		"INSERT INTO ps.r SELECT * FROM ps.b")
	l := newLive(t, rootOptions(srv), testInterval, func(o *LiveOptions) { o.Explain.Disabled = true })
	// SLEEP per row keeps both running: one scans, one reads a primary-key
	// range, on different tables so neither waits for the other's row locks.
	const scan = "UPDATE b SET v = v + 1 WHERE SLEEP(0.001) = 0 AND c = 7"
	const ranged = "UPDATE r SET v = v + 1 WHERE id BETWEEN 1 AND 2900 AND SLEEP(0.001) = 0"
	go openDB(t, srv.DSN("ps")).Exec(scan)
	go openDB(t, srv.DSN("ps")).Exec(ranged)

	deadline := time.Now().Add(2500 * time.Millisecond)
	for time.Now().Before(deadline) {
		s := next(t, l)
		a, okA := threadRunning(s, scan)
		b, okB := threadRunning(s, ranged)
		if !okA || !okB || a.TimeMS < 1200 || b.TimeMS < 1200 {
			continue
		}
		if !a.NoIndexUsed || a.ExaminedRows <= 0 {
			t.Errorf("full scan: %+v", a)
		}
		if b.NoIndexUsed {
			t.Errorf("primary-key range marked as no index: %+v", b)
		}
		return
	}
	t.Fatal("the two UPDATEs were not seen running for over a second")
}
