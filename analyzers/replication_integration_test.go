package analyzers

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// Replication reproduced for real: two sources, a replica of the first with
// one channel, and a replica of both with two named channels. On the
// two-channel replica channel 'a' breaks on a duplicate key and channel 'b'
// falls behind under a write burst while a lock on the replica holds its SQL
// thread. Each finding must name its channel and no other; the healthy
// replica stays quiet.
func TestIntegrationReplicationChannels(t *testing.T) {
	t.Parallel()
	src1 := testdb.Start(t, "--server-id=1", "--log-bin=binlog", "--gtid-domain-id=1")
	src2 := testdb.Start(t, "--server-id=2", "--log-bin=binlog", "--gtid-domain-id=2")
	one := testdb.Start(t, "--server-id=3")
	two := testdb.Start(t, "--server-id=4", "--innodb-lock-wait-timeout=300")
	src1.Exec(t, "CREATE DATABASE a", "CREATE TABLE a.t (id INT PRIMARY KEY)", "INSERT INTO a.t VALUES (1)")
	src2.Exec(t, "CREATE DATABASE b", "CREATE TABLE b.t (id INT PRIMARY KEY, v INT)", "INSERT INTO b.t VALUES (1, 0)")
	one.Exec(t, changeSource("", src1), "START SLAVE")
	two.Exec(t, changeSource("a", src1), changeSource("b", src2), "START ALL SLAVES")
	waitRows(t, two, "SELECT COUNT(*) FROM a.t", 1)
	waitRows(t, two, "SELECT COUNT(*) FROM b.t", 1)
	waitRows(t, one, "SELECT COUNT(*) FROM a.t", 1)

	// Channel 'a': the replica already has the row the source will insert.
	two.Exec(t, "INSERT INTO a.t VALUES (5)")
	// Channel 'b': a transaction on the replica holds the row the burst updates.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lock, err := two.DB(t).Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	for _, q := range []string{"BEGIN", "UPDATE b.t SET v = v WHERE id = 1"} {
		if _, err := lock.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	src1.Exec(t, "INSERT INTO a.t VALUES (5)")
	burst := make([]string, 200)
	for i := range burst {
		burst[i] = fmt.Sprintf("UPDATE b.t SET v = %d WHERE id = 1", i+1)
	}
	src2.Exec(t, burst...)

	cfg := DefaultConfig()
	cfg.ReplicaLagWarn = 5 * time.Second
	var stopped, lag *snapshot.Finding
	live := watch(t, two, within(60*time.Second), judged(cfg), until(func(f *snapshot.Frame) bool {
		stopped, lag = findingIn(f, IDReplicationStopped), findingIn(f, IDReplicationLag)
		return stopped != nil && lag != nil && strings.Contains(lag.Title, "growing")
	})).frames
	if stopped == nil || lag == nil {
		t.Fatalf("replication_stopped %v, replication_lag %v", stopped, lag)
	}
	t.Logf("%s: %s\n%s", stopped.ID, stopped.Title, strings.Join(stopped.Evidence, "\n"))
	t.Logf("%s: %s\n%s", lag.ID, lag.Title, strings.Join(lag.Evidence, "\n"))
	wantEvidence(t, stopped, "channel 'a'", "SQL thread not running", "1062", "Duplicate entry '5'")
	wantEvidence(t, lag, "channel 'b'", "behind", "growing", "applies: UPDATE b.t SET v =")
	for _, e := range stopped.Evidence {
		if strings.Contains(e, "channel 'b'") {
			t.Errorf("replication_stopped names the lagging channel: %q", e)
		}
	}
	for _, e := range append([]string{lag.Title}, lag.Evidence...) {
		if strings.Contains(e, "channel 'a'") {
			t.Errorf("replication_lag names the stopped channel: %q", e)
		}
	}
	if stopped.Severity != snapshot.Critical {
		t.Errorf("a thread stopped by an error is %v", stopped.Severity)
	}
	// A lag that grows while the SQL thread runs is an incident, not a
	// catch-up (the routine-work review): it keeps its warning.
	if lag.Severity < snapshot.Warning || strings.Contains(lag.Title, "catching up") {
		t.Errorf("a growing lag is %v: %s", lag.Severity, lag.Title)
	}
	if len(lag.Threads) != 1 {
		t.Errorf("the applying SQL thread is not named: %v", lag.Threads)
	}
	sameInReplay(t, live, cfg, stopped)
	sameInReplay(t, live, cfg, lag)

	// The one-channel replica applied the same insert without conflict.
	frames := watch(t, one, within(20*time.Second), judged(cfg),
		until(func(f *snapshot.Frame) bool { return f.Seq >= 5 })).frames
	last := frames[len(frames)-1]
	if n := len(last.Snapshot.Channels()); n != 1 {
		t.Errorf("the healthy replica shows %d channels", n)
	}
	for _, f := range frames {
		for _, x := range f.Findings {
			if x.ID == IDReplicationLag || x.ID == IDReplicationStopped {
				t.Errorf("healthy replica raised %s: %s", x.ID, x.Title)
			}
		}
	}
}

func changeSource(name string, src *testdb.Server) string {
	conn := ""
	if name != "" {
		conn = "'" + name + "' "
	}
	return fmt.Sprintf("CHANGE MASTER %sTO MASTER_HOST='127.0.0.1', MASTER_PORT=%d, MASTER_USER='root', "+
		"MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1", conn, src.Port)
}

// waitRows waits until q on srv returns want.
func waitRows(t *testing.T, srv *testdb.Server, q string, want int) {
	t.Helper()
	db := srv.DB(t)
	deadline := time.Now().Add(30 * time.Second)
	for {
		var n int
		err := db.QueryRow(q).Scan(&n)
		if err == nil && n == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d (%v), want %d", q, n, err, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
