package collectors

import (
	"bytes"
	"context"
	"database/sql/driver"
	"encoding/binary"
	"net"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"
)

// The server names a session in its very first packet (the handshake
// greeting carries the connection id), before the monitor can ask
// CONNECTION_ID() or set the session's timeouts. A link that stalls in
// between leaves a session the monitor never learnt the id of, idle with
// the default wait_timeout of 8 hours and out of reach of the orphan KILL
// (seen in TestLiveFlakyLinkLeavesNoPileUp: a session asleep 137 s after the
// link returned). greetings reads the id off the greeting as the driver
// reads it, so a session that fails before it is identified is still an
// orphan with an id.

// greetings remembers the ids of the sessions greeted since the last take,
// for one connector (the sampling connection, whose sampling and companion
// sessions are opened one at a time on the tick, or the on-demand one).
type greetings struct {
	mu  sync.Mutex
	ids map[int64]time.Time
}

// dialer wraps base (nil: a plain net.Dialer) so that each connection
// reports the id in the server's greeting.
func (g *greetings) dialer(base func(ctx context.Context, network, addr string) (net.Conn, error)) func(ctx context.Context, network, addr string) (net.Conn, error) {
	if base == nil {
		var d net.Dialer
		base = d.DialContext
	}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := base(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &greetConn{Conn: c, seen: g.greeted}, nil
	}
}

func (g *greetings) greeted(id int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ids == nil {
		g.ids = map[int64]time.Time{}
	}
	g.ids[id] = time.Now()
}

// takeSince returns and forgets the ids greeted at or after since and not
// confirmed: the sessions an open may have left on the server besides the
// one it returned (older ones are dropped: their opens reported them).
func (g *greetings) takeSince(since time.Time) []int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []int64
	for id, at := range g.ids {
		if !at.Before(since) {
			out = append(out, id)
		}
		delete(g.ids, id)
	}
	return out
}

// greetConn passes every byte through and parses the first packet it reads:
// a 4-byte header, the protocol version, the server version up to its NUL,
// then the connection id (4 bytes, little endian).
type greetConn struct {
	net.Conn
	seen func(int64)
	head []byte
	done bool
}

// greetingMax bounds what is kept while looking for the id: a server
// version string is far shorter.
const greetingMax = 512

func (c *greetConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if !c.done && n > 0 {
		c.head = append(c.head, p[:n]...)
		if id, ok := greetingID(c.head); ok {
			c.done, c.head = true, nil
			c.seen(id)
		} else if len(c.head) > greetingMax || len(c.head) > 4 && c.head[4] != 10 {
			c.done, c.head = true, nil // an error packet (host blocked, too many connections)
		}
	}
	return n, err
}

// greetingID reads the connection id from the start of a handshake packet
// (protocol 10); false until enough bytes are there, or when it is not one.
func greetingID(b []byte) (int64, bool) {
	const header = 4
	if len(b) < header+2 || b[header] != 10 {
		return 0, false
	}
	end := bytes.IndexByte(b[header+1:], 0)
	if end < 0 {
		return 0, false
	}
	at := header + 1 + end + 1
	if len(b) < at+4 {
		return 0, false
	}
	return int64(binary.LittleEndian.Uint32(b[at : at+4])), true
}

// greetedConnector is a connector for cfg whose sessions report their ids
// to g.
func greetedConnector(cfg *mysql.Config, g *greetings) (driver.Connector, error) {
	c := cfg.Clone()
	c.DialFunc = g.dialer(cfg.DialFunc)
	return mysql.NewConnector(c)
}

// orphansOfOpen records as orphans the sessions greeted since an open began
// other than kept (0 when the open failed), and failedID, the id a failed
// open had learnt. An open the server refused (a wrong password, too many
// connections, a blocked host: err carries its error number) left no
// session behind, and must not fill the cap on the monitor's sessions.
//
// A greeted id is acted on (hidden from the processlist, killed when seen)
// only once the greetings are known to carry the server's own thread ids:
// behind a MySQL-protocol proxy (ProxySQL, MaxScale, RDS Proxy) the id in
// the greeting is the proxy's, and as a server thread id it names some
// other client's session. failedID came from CONNECTION_ID() and is always
// the server's.
func orphansOfOpen(l *serverLink, g *greetings, began time.Time, kept, failedID int64, err error) {
	now := time.Now()
	greeted := g.takeSince(began)
	if kept > 0 {
		l.greetingsConfirm(greeted, kept)
	}
	if err != nil && failedID == 0 && serverErrno(err) != 0 {
		return
	}
	if l.greetingsTrusted() {
		for _, id := range greeted {
			if id != kept {
				l.addOrphan(id, now)
			}
		}
	}
	l.addOrphan(failedID, now)
}
