package collectors

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"io"
	"net"
	"strconv"
	"testing"

	"github.com/mytop-go/mytop-go/internal/connopt"
	"github.com/mytop-go/mytop-go/snapshot"
)

// greetingProxy is a MySQL-protocol proxy on loopback, as ProxySQL or RDS
// Proxy are to the monitor: it answers the handshake with a connection id
// of its own (here: the id of another client's session on the server) and
// passes every other byte through.
func greetingProxy(t *testing.T, server string, id uint32) string {
	t.Helper()
	return loopbackServer(t, func(client net.Conn) { relayRewritingGreeting(client, server, id) })
}

func relayRewritingGreeting(client net.Conn, server string, id uint32) {
	defer client.Close()
	up, err := net.Dial("tcp", server)
	if err != nil {
		return
	}
	defer up.Close()
	head := make([]byte, 4)
	if _, err := io.ReadFull(up, head); err != nil {
		return
	}
	body := make([]byte, int(head[0])|int(head[1])<<8|int(head[2])<<16)
	if _, err := io.ReadFull(up, body); err != nil {
		return
	}
	if end := bytes.IndexByte(body, 0); len(body) > 0 && body[0] == 10 && end > 0 && len(body) >= end+5 {
		binary.LittleEndian.PutUint32(body[end+1:end+5], id)
	}
	if _, err := client.Write(append(head, body...)); err != nil {
		return
	}
	done := make(chan struct{}, 2)
	go func() { io.Copy(up, client); done <- struct{}{} }()
	go func() { io.Copy(client, up); done <- struct{}{} }()
	<-done
}

// Behind a proxy the greeting's id is not the server's thread id: the
// monitor, as the same user, must neither hide the server session that
// happens to have that id nor kill it.
func TestProxyGreetingIDNeverHidesNorKillsAnotherSession(t *testing.T) {
	t.Parallel()
	srv := sharedServer(t)
	victim := clientSession(t, openDB(t, srv.DSN("")))
	id := connectionID(t, victim)
	const q = "SELECT SLEEP(60) /* another tool's session, same account */"
	done := start(victim, q)
	admin := srv.DB(t)
	awaitRunning(t, admin, id, q)

	host, port, _ := net.SplitHostPort(greetingProxy(t, srv.Addr(), uint32(id)))
	p, _ := strconv.Atoi(port)
	l := newLive(t, connopt.Options{Host: host, Port: p, Protocol: "tcp", User: "root", PasswordSet: true, SSLMode: "DISABLED"},
		testInterval, nil)
	ctx := context.Background()
	read := 0
	for tick := 0; tick < 8; tick++ {
		s := next(t, l)
		if tick == 1 { // the on-demand connection, greeted through the proxy too
			// Whether it opens depends on how many sessions the cap still
			// counts as being ended (a greeted id that CONNECTION_ID() did
			// not confirm is never killed): the subject here is what the
			// monitor does to the other session, not this connection.
			if err := l.actions.do(ctx, func(*sql.Conn) error { return nil }); err != nil {
				t.Logf("tick %d: the on-demand connection was not opened: %v", tick, err)
			}
		}
		if s.Server.Unreachable {
			t.Fatalf("tick %d: the server is unreachable through the proxy", tick)
		}
		if st := s.Collectors[snapshot.CollectorProcesslist]; st.Stale || st.Error != "" {
			continue // a tick the loaded machine could not read the list in
		}
		read++
		if _, ok := threadRunning(s, q); !ok {
			t.Errorf("tick %d: thread %d, greeted as the monitor's by the proxy, is hidden from the processlist", tick, id)
		}
	}
	stillRuns(t, done, "the session whose id the proxy greeted with")
	endStatement(t, admin, id, done)
	if read < 3 {
		t.Skipf("only %d of 8 ticks read the processlist on this loaded machine", read)
	}
}
