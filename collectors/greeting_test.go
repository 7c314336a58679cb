package collectors

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

func greetingPacket(version string, id uint32) []byte {
	body := append([]byte{10}, version...)
	body = append(body, 0)
	body = binary.LittleEndian.AppendUint32(body, id)
	body = append(body, "12345678\x00rest-of-greeting"...)
	head := []byte{byte(len(body)), byte(len(body) >> 8), byte(len(body) >> 16), 0}
	return append(head, body...)
}

func TestGreetingID(t *testing.T) {
	full := greetingPacket("10.11.19-MariaDB-0+deb12u1", 4242)
	for _, tc := range []struct {
		name string
		b    []byte
		id   int64
		ok   bool
	}{
		{"whole greeting", full, 4242, true},
		{"cut inside the id", full[:len("10.11.19-MariaDB-0+deb12u1")+4+1+1+2], 0, false},
		{"cut inside the version", full[:10], 0, false},
		{"an error packet, not a greeting", []byte{9, 0, 0, 0, 0xff, 0x69, 0x04, 'H', 'o', 's', 't'}, 0, false},
		{"empty", nil, 0, false},
	} {
		id, ok := greetingID(tc.b)
		if id != tc.id || ok != tc.ok {
			t.Errorf("%s: got %d, %v; want %d, %v", tc.name, id, ok, tc.id, tc.ok)
		}
	}
}

// The dialer reports the id even when the driver reads the greeting a few
// bytes at a time, and passes every byte through unchanged.
func TestGreetingsDialerSeesTheIDAcrossReads(t *testing.T) {
	server, client := net.Pipe()
	defer server.Close()
	var g greetings
	dial := g.dialer(func(context.Context, string, string) (net.Conn, error) { return client, nil })
	began := time.Now()
	c, err := dial(context.Background(), "tcp", "x")
	if err != nil {
		t.Fatal(err)
	}
	pkt := greetingPacket("8.0.36", 77)
	go func() {
		for i := 0; i < len(pkt); i += 3 {
			server.Write(pkt[i:min(i+3, len(pkt))])
		}
		server.Close()
	}()
	got, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(pkt) {
		t.Errorf("the bytes changed on the way")
	}
	if ids := g.takeSince(began); len(ids) != 1 || ids[0] != 77 {
		t.Errorf("greeted %v, want [77]", ids)
	}
	if ids := g.takeSince(began); len(ids) != 0 {
		t.Errorf("taken twice: %v", ids)
	}
}

// A failed open leaves the greeted session as an orphan; one the server
// refused (a wrong password) leaves none, so retries never fill the cap.
// The greeted id is acted on only once an open's CONNECTION_ID() matched
// its greeting: behind a proxy the greeting's id is not the server's.
func TestOrphansOfOpen(t *testing.T) {
	refused := &mysql.MySQLError{Number: 1045, Message: "Access denied"}
	for _, tc := range []struct {
		name           string
		confirmed      int64 // an earlier open's CONNECTION_ID(), greeted as 5; 0: none yet
		kept, failedID int64
		err            error
		want           int
	}{
		{"opened: the kept session is no orphan", 5, 7, 0, nil, 0},
		{"stalled before CONNECTION_ID()", 5, 0, 0, context.DeadlineExceeded, 1},
		{"stalled setting the timeouts", 5, 0, 7, context.DeadlineExceeded, 1},
		{"access denied", 5, 0, 0, refused, 0},
		{"stalled before any greeting was confirmed", 0, 0, 0, context.DeadlineExceeded, 0},
		{"confirmed id, learnt before it stalled", 0, 0, 7, context.DeadlineExceeded, 1},
		{"behind a proxy: greeted 5, CONNECTION_ID() 905", 905, 0, 0, context.DeadlineExceeded, 0},
		{"behind a proxy, opened: the greeted id is someone else's", 905, 907, 0, nil, 0},
	} {
		var l serverLink
		var g greetings
		if tc.confirmed != 0 {
			g.greeted(5)
			orphansOfOpen(&l, &g, time.Now().Add(-time.Second), tc.confirmed, 0, nil)
		}
		began := time.Now()
		g.greeted(7)
		orphansOfOpen(&l, &g, began, tc.kept, tc.failedID, tc.err)
		if n := len(l.orphans); n != tc.want {
			t.Errorf("%s: %d orphans, want %d", tc.name, n, tc.want)
		}
	}
}
