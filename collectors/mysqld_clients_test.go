package collectors

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A server's namespace as /proc/<pid>/net/tcp prints it: its listener on
// 3306 (0CEA), two client connections established on it, one of them with
// 0x3000 bytes unacknowledged and 0x10 unread, a connection the server
// makes itself (to 3307), and one closing (06, TIME_WAIT) on 3306.
const procNetTCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000:0CEA 00000000:0000 0A 00000000:00000000 00:00000000 00000000   106        0 41001 1 0000000000000000 100 0 0 10 0
   1: 0100007F:0CEA 0100007F:D2F0 01 00003000:00000010 01:00000014 00000000   106        0 41002 1 0000000000000000 20 4 30 10 -1
   2: 0100007F:0CEA 0100007F:D2F2 01 00000000:00000000 00:00000000 00000000   106        0 41003 1 0000000000000000 20 4 30 10 -1
   3: 0100007F:D2F4 0100007F:0CEB 01 00008000:00000000 00:00000000 00000000   106        0 41004 1 0000000000000000 20 4 30 10 -1
   4: 0100007F:0CEA 0100007F:D2F6 06 00000000:00000000 03:00001770 00000000     0        0 0 3 0000000000000000
`

func TestClientQueuesOfTheServerPort(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "812", "net")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tcp"), []byte(procNetTCP), 0o644); err != nil {
		t.Fatal(err)
	}
	var q clientQueues
	got := q.read(root, 812, 3306, time.Unix(100, 0))
	want := snapshot.ClientQueues{Connections: 2, Sending: 1, SendBytes: 0x3000, RecvBytes: 0x10}
	if got == nil || *got != want {
		t.Fatalf("queues %+v, want %+v", got, want)
	}
	if q.read(root, 812, 0, time.Unix(101, 0)) != nil {
		t.Error("read without a port")
	}
	if q.read(root, 813, 3306, time.Unix(101, 0)) != nil {
		t.Error("read a namespace that is not there")
	}
}

// Above manyClients connections the tables are read every clientsEvery.
func TestClientQueuesReadLessOftenWhenMany(t *testing.T) {
	q := clientQueues{conns: manyClients + 1, last: time.Unix(100, 0)}
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "812", "net"), 0o755)
	os.WriteFile(filepath.Join(root, "812", "net", "tcp"), []byte(procNetTCP), 0o644)
	if q.read(root, 812, 3306, time.Unix(102, 0)) != nil {
		t.Error("read 2 s after the last, with many connections")
	}
	if q.read(root, 812, 3306, time.Unix(105, 0)) == nil {
		t.Error("not read 5 s after the last")
	}
	if q.read(root, 812, 3306, time.Unix(106, 0)) == nil {
		t.Error("not read the next second once the connections are few")
	}
}

// BenchmarkClientQueues5000 reads a table of 5,000 client connections, as
// the server's namespace prints it at 5,000 connections.
func BenchmarkClientQueues5000(b *testing.B) {
	var table []byte
	table = append(table, procNetTCP[:strings.IndexByte(procNetTCP, '\n')+1]...)
	for i := range 5000 {
		table = fmt.Appendf(table, "%4d: 0100007F:0CEA 0100007F:%04X 01 %08X:00000000 00:00000000 00000000   106        0 %d 1 0000000000000000 20 4 30 10 -1\n",
			i, 10000+i, i%7, 50000+i)
	}
	b.SetBytes(int64(len(table)))
	for b.Loop() {
		var q snapshot.ClientQueues
		addClientQueues(table, 3306, &q)
		if q.Connections != 5000 {
			b.Fatalf("%d connections", q.Connections)
		}
	}
}
