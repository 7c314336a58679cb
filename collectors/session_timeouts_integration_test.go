package collectors

import (
	"context"
	"database/sql"
	"testing"
	"time"
)

// The sampling and on-demand sessions run with short timeouts, so one the
// monitor gave up on ends on the server by itself.
func TestSessionsSetShortTimeouts(t *testing.T) {
	// Serial: on the shared server, whose processlist and sessions other tests' monitors would share.
	srv := sharedServer(t)
	l := newLive(t, rootOptions(srv), time.Second, nil)
	awaitHealthy(t, l)
	ctx := context.Background()
	var wait, netRead, netWrite, lockWait int
	q := "SELECT @@session.wait_timeout, @@session.net_read_timeout, @@session.net_write_timeout, @@session.lock_wait_timeout"
	if err := l.link.session().conn.QueryRowContext(ctx, q).Scan(&wait, &netRead, &netWrite, &lockWait); err != nil {
		t.Fatal(err)
	}
	if wait != 10 || netRead != 5 || netWrite != 5 || lockWait != 1 {
		t.Errorf("sampling session: wait %d, net read %d, net write %d, lock wait %d; want 10 5 5 1", wait, netRead, netWrite, lockWait)
	}
	err := l.actions.do(ctx, func(c *sql.Conn) error { return c.QueryRowContext(ctx, q).Scan(&wait, &netRead, &netWrite, &lockWait) })
	if err != nil {
		t.Fatal(err)
	}
	if wait != 40 || netRead != 5 || netWrite != 5 || lockWait != 2 {
		t.Errorf("on-demand session: wait %d, net read %d, net write %d, lock wait %d; want 40 5 5 2", wait, netRead, netWrite, lockWait)
	}
}
