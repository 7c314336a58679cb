package collectors

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// On a server whose default time zone is not SYSTEM (+05:00 on a host in
// another zone), transaction ages must still be seconds, not hours: the
// lock tables print trx_started in the system zone. Then the queue grows
// past the lock tables' limit while the InnoDB collector's status is an
// hour from due: the tree must come from a status read for the lock read,
// never from the frame's stale one (which lists no waiter at all).
func TestLocksAgesAndFreshStatusWithSessionTimeZone(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t, "--default-time-zone=+05:00", "--innodb-lock-wait-timeout=300")
	srv.Exec(t, "CREATE DATABASE shop", "CREATE TABLE shop.acct (id INT PRIMARY KEY, bal INT) ENGINE=InnoDB",
		"INSERT INTO shop.acct VALUES (1, 0), (2, 0)")
	db := openDB(t, srv.DSN(""))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The first frame reads the InnoDB status once, with nothing waiting. On
	// a test machine starting a dozen servers at once that one read may
	// overrun its budget, and with a period of an hour it is not read again:
	// a new monitor starts over (three tries).
	var l *Live
	var first *snapshot.Snapshot
	for try := 1; ; try++ {
		l = newLive(t, rootOptions(srv), testInterval, func(o *LiveOptions) { o.InnoDBEvery = time.Hour })
		if first = next(t, l); first.InnoDB != nil {
			break
		}
		st := first.Collectors[snapshot.CollectorInnoDB]
		if try == 3 {
			t.Fatalf("no InnoDB status in the first frame, three times (last: %+v)", st)
		}
		t.Logf("no InnoDB status in the first frame (%+v): starting over", st)
		l.Close()
	}
	holder, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	var holderID int64
	holder.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&holderID)
	for _, q := range []string{"BEGIN", "UPDATE shop.acct SET bal = 1 WHERE id = 1"} {
		if _, err := holder.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	wait := func(n int) {
		for range n {
			c, err := db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			go func() { c.ExecContext(ctx, "UPDATE shop.acct SET bal = bal + 1 WHERE id = 1"); c.Close() }()
		}
	}
	// tree is the first frame's lock tree with want waiters, from source src
	// when it is not "": while the waiters queue, a tick's lock tables may
	// list fewer waits than the status counter read just before them, and
	// that tick rightly falls back to the InnoDB status.
	tree := func(want int, src string) (*snapshot.Snapshot, *infer.LockTree) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			s := next(t, l)
			tr := infer.BuildLockTree(s)
			if tr != nil && tr.Waiting >= want && (src == "" || tr.Sources[snapshot.LockRow] == src) {
				return s, tr
			}
		}
		t.Fatalf("no lock tree with %d waiters from %q", want, src)
		return nil, nil
	}
	time.Sleep(2 * time.Second) // the holder's transaction is 2 s old
	wait(3)
	s, tr := tree(3, srcInnoDBLockWait)
	if tr.Sources[snapshot.LockRow] != srcInnoDBLockWait || len(tr.Roots) != 1 || tr.Roots[0].Thread != holderID {
		t.Fatalf("lock tables path: %+v sources %v", tr.Roots, tr.Sources)
	}
	if a := tr.Roots[0].AgeS(); a < 1 || a > 60 {
		t.Errorf("holder's transaction age %d s under time_zone +05:00; want a few seconds", a)
	}
	for _, c := range tr.Roots[0].Children {
		if c.Wait.WaitS > 60 {
			t.Errorf("wait age %d s under time_zone +05:00", c.Wait.WaitS)
		}
	}
	t.Logf("ages: holder %d s, frame time %v", tr.Roots[0].AgeS(), s.Time)

	wait(maxLockTableWaiters + 5)
	s, tr = tree(maxLockTableWaiters+8, "")
	if s.InnoDB == nil || s.InnoDB.ReadAt != first.InnoDB.ReadAt {
		t.Fatalf("the frame's InnoDB status should still be the first one")
	}
	if got := tr.Sources[snapshot.LockRow]; got != srcInnoDBStatus+" (holders from the records)" {
		t.Errorf("row source %q", got)
	}
	age, ok := s.Locks.SourceAge(snapshot.LockRow)
	if !ok || age > testInterval {
		t.Errorf("row source %v old (known %v): older than the lock read", age, ok)
	}
	if len(tr.Roots) != 1 || tr.Roots[0].Thread != holderID || tr.Roots[0].Guessed != 0 {
		t.Errorf("root %s, want %d exact", fmt.Sprint(tr.Roots[0].Thread), holderID)
	}
}
