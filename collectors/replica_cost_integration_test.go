package collectors

import (
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
)

// TestNoReplicationOrGaleraStatementOnAPlainServer counts what the monitor
// sends per tick: on a server that is neither a replica nor a Galera node
// the replica status statement runs once (the first tick) and then only
// every ReplicaIdleEvery, and Galera sends nothing (its figures are in the
// status and variables already read). A replica gets exactly one statement
// more per tick, which shows the count can see one.
func TestNoReplicationOrGaleraStatementOnAPlainServer(t *testing.T) {
	t.Parallel()
	plain := testdb.Start(t)
	replica := testdb.Start(t, "--server-id=2")
	replica.Exec(t, "CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=1, MASTER_USER='root'")
	plainShow, plainPerTick := statementsPerTick(t, plain)
	replicaShow, replicaPerTick := statementsPerTick(t, replica)
	if plainShow != 0 {
		t.Errorf("a server that is no replica was asked for replica status %d times in 6 ticks", plainShow)
	}
	if replicaShow != 6 {
		t.Errorf("a replica was asked for its status %d times in 6 ticks, want 6", replicaShow)
	}
	if replicaPerTick != plainPerTick+1 {
		t.Errorf("statements per tick: plain %d, replica %d; want exactly one more on the replica", plainPerTick, replicaPerTick)
	}
}

// statementsPerTick samples srv for 8 ticks with the periodic sources pushed
// out of the way, and returns how many replica status statements the last 6
// ticks sent and the fewest statements any of them sent.
func statementsPerTick(t *testing.T, srv *testdb.Server) (shows, perTick int64) {
	t.Helper()
	l := newLive(t, rootOptions(srv), testInterval, func(o *LiveOptions) {
		o.InnoDBEvery, o.VariablesEvery = time.Hour, time.Hour
	})
	db := srv.DB(t)
	read := func() (show, questions int64) {
		if err := db.QueryRow("SELECT (SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS"+
			" WHERE VARIABLE_NAME = 'COM_SHOW_SLAVE_STATUS'), (SELECT VARIABLE_VALUE FROM"+
			" information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'QUESTIONS')").Scan(&show, &questions); err != nil {
			t.Fatal(err)
		}
		return show, questions
	}
	next(t, l)
	next(t, l)
	show0, q := read()
	perTick = -1
	for range 6 {
		next(t, l)
		_, q1 := read()
		// The read itself is one question.
		if n := q1 - q - 1; perTick < 0 || n < perTick {
			perTick = n
		}
		q = q1
	}
	show1, _ := read()
	// With no other client statement in between, the self measure must
	// still count every temporary table (the replica statement is left out
	// of what makes it read the session counters: it makes none).
	first := next(t, l)
	var last *snapshot.Snapshot
	for range 4 {
		last = next(t, l)
	}
	checkOwnTmp(t, srv.Addr()+": ", first, last)
	t.Logf("%s: %d replica status reads, %d statements per tick", srv.Addr(), show1-show0, perTick)
	return show1 - show0, perTick
}
