package collectors

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// clientQueues reads the TCP queues of the server's client connections
// from /proc/<pid>/net/tcp and tcp6: the server's network namespace (a
// container's, where it runs in one), every socket of it. A slow link or
// client shows there before anywhere else: mysqld has written its answer
// and waits, not busy and not on a lock, while the bytes sit unacknowledged.
// The tables cost about 150 bytes a socket to make and read, so above
// manyClients connections they are read every clientsEvery.
type clientQueues struct {
	last  time.Time
	conns int
}

const (
	manyClients  = 1000
	clientsEvery = 5 * time.Second
)

// read returns the queues of the connections on port, or nil when it is
// not read this time or cannot be.
func (q *clientQueues) read(root string, pid int, port uint16, now time.Time) *snapshot.ClientQueues {
	if port == 0 || pid <= 0 || (q.conns > manyClients && now.Sub(q.last) < clientsEvery) {
		return nil
	}
	out := &snapshot.ClientQueues{}
	read := false
	for _, name := range []string{"tcp", "tcp6"} {
		data, err := os.ReadFile(filepath.Join(root, strconv.Itoa(pid), "net", name))
		if err != nil {
			continue
		}
		read = true
		addClientQueues(data, port, out)
	}
	if !read {
		return nil
	}
	q.last, q.conns = now, out.Connections
	return out
}

// tcpEstablished is /proc/net/tcp's state for an established connection.
const tcpEstablished = "01"

var colon = []byte{':'}

// addClientQueues adds the established connections on local port from one
// table: "sl local_address rem_address st tx_queue:rx_queue ...", the
// addresses and queues in hex.
func addClientQueues(data []byte, port uint16, out *snapshot.ClientQueues) {
	for line := range procLines(data) {
		_, rest := nextField(line) // sl
		local, rest := nextField(rest)
		_, rest = nextField(rest) // rem_address
		st, rest := nextField(rest)
		queues, _ := nextField(rest)
		if string(st) != tcpEstablished || len(local) < 5 || local[len(local)-5] != ':' ||
			hexUint(local[len(local)-4:]) != uint64(port) {
			continue
		}
		tx, rx, ok := bytes.Cut(queues, colon)
		if !ok {
			continue
		}
		out.Connections++
		if n := hexUint(tx); n > 0 {
			out.Sending++
			out.SendBytes += n
		}
		out.RecvBytes += hexUint(rx)
	}
}

// hexUint reads upper- or lower-case hex digits; 0 on anything else.
// Per row of the table: strconv.ParseUint would want a string, one
// allocation a connection.
func hexUint(b []byte) uint64 {
	var v uint64
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | uint64(c-'0')
		case c >= 'A' && c <= 'F':
			v = v<<4 | uint64(c-'A'+10)
		case c >= 'a' && c <= 'f':
			v = v<<4 | uint64(c-'a'+10)
		default:
			return 0
		}
	}
	return v
}
