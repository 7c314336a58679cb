package importers

import (
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestNetstatClientQueues(t *testing.T) {
	head := "Active Internet connections (servers and established)\n" +
		"Proto Recv-Q Send-Q Local Address           Foreign Address         State       PID/Program name\n"
	for _, c := range []struct {
		name, table string
		pid         int
		want        snapshot.ClientQueues
		read        bool
	}{
		{"the server's connections, not its listener nor a closing one", head +
			"tcp        0      0 10.0.0.1:3307           0.0.0.0:*               LISTEN      700/mariadbd\n" +
			"tcp        0  65536 10.0.0.1:3307           10.0.0.2:40000          ESTABLISHED 700/mariadbd\n" +
			"tcp       12      0 10.0.0.1:3307           10.0.0.2:40002          ESTABLISHED 700/mariadbd\n" +
			"tcp        0    300 10.0.0.1:3307           10.0.0.2:40004          TIME_WAIT   -\n" +
			"tcp6       0     10 ::ffff:10.0.0.1:3307    ::ffff:10.0.0.3:5000    ESTABLISHED 700/mariadbd\n",
			700, snapshot.ClientQueues{Connections: 3, Sending: 2, SendBytes: 65546, RecvBytes: 12}, true},
		{"a client's outgoing connection to the port is the other end", head +
			"tcp        0    999 10.0.0.2:40000          10.0.0.1:3307           ESTABLISHED 900/sysbench\n",
			700, snapshot.ClientQueues{}, true},
		{"another server on the same port (another namespace's) is not counted", head +
			"tcp        0    500 10.9.0.1:3307           10.9.0.2:40000          ESTABLISHED 800/mariadbd\n" +
			"tcp        0    100 10.0.0.1:3307           10.0.0.2:40000          ESTABLISHED 7000/mariadbd\n",
			700, snapshot.ClientQueues{}, true},
		{"unknown owners count when the server's pid is unknown or not shown", head +
			"tcp        0    500 10.9.0.1:3307           10.9.0.2:40000          ESTABLISHED -\n",
			0, snapshot.ClientQueues{Connections: 1, Sending: 1, SendBytes: 500}, true},
		{"no table", "netstat: command not found\n", 700, snapshot.ClientQueues{}, false},
	} {
		got, ok := netstatClientQueues(strings.Split(c.table, "\n"), "3307", c.pid)
		if ok != c.read || *got != c.want {
			t.Errorf("%s: got %+v (%v), want %+v (%v)", c.name, *got, ok, c.want, c.read)
		}
	}
}
