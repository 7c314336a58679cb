package collectors

import (
	"context"
	"database/sql"
	"testing"

	"github.com/mytop-go/mytop-go/internal/connopt"
	"github.com/mytop-go/mytop-go/internal/testdb"
)

// TestIntegrationClientQueuesOfASlowReader: a client that asks for 24 MiB
// and reads none of it leaves mysqld's answer in its connection's send
// queue, as a slowed link does; the live snapshot of a monitor reaching the
// server by its port says so, on that port, beside its own connection.
func TestIntegrationClientQueuesOfASlowReader(t *testing.T) {
	t.Parallel()
	srv := testdb.Start(t)
	o := tcpOptions("127.0.0.1", srv.Port)
	l := newLive(t, o, testInterval, func(opts *LiveOptions) { opts.Host = hostFor(connopt.AddressOf(configFor(t, o))) })
	s := awaitHealthy(t, l)
	if s.Host == nil || s.Host.Mysqld == nil || s.Host.Mysqld.Clients == nil {
		t.Fatalf("no client queues read: host %+v", s.Host)
	}
	before := *s.Host.Mysqld.Clients
	if before.Connections < 1 || before.SendBytes > 1<<20 {
		t.Fatalf("before the slow reader: %+v, want the monitor's own connection and nothing queued", before)
	}
	db, err := sql.Open("mysql", srv.TCPDSN(""))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.QueryContext(context.Background(), "SELECT REPEAT('x', 1048576) FROM mysql.seq_1_to_24")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for range 20 {
		s = next(t, l)
		if q := s.Host.Mysqld.Clients; q != nil && q.Sending >= 1 && q.SendBytes >= 1<<20 {
			t.Logf("before %+v, with the slow reader %+v", before, *q)
			if q.Connections != before.Connections+1 {
				t.Errorf("connections %d, want %d (the monitor's and the reader's)", q.Connections, before.Connections+1)
			}
			return
		}
	}
	t.Fatalf("the unread answer never showed in the send queues: %+v", s.Host.Mysqld.Clients)
}
