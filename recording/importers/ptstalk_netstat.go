package importers

import (
	"strconv"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// pt-stalk's -netstat is `netstat -antp`, TS-stamped, every second: each
// socket's queues. The server's client connections (established, on its
// port, owned by it when the PID column says) give what the live collector
// reads from /proc/<pid>/net/tcp: the bytes mysqld has written that its
// clients have not acknowledged, the first sign of a slow link or client.

// readClientQueues puts each copy's queues on the seconds' mysqld where top
// placed one (a process entry made here would read as a stopped CPU).
func (r *ptReader) readClientQueues(pid int) error {
	path, ok := r.g.files["netstat"]
	port := variablePort(r.tl.variables)
	if !ok || port == "" {
		return nil
	}
	return r.eachTSBlock(path, func(t time.Time, lines []string) {
		q, ok := netstatClientQueues(lines, port, pid)
		if !ok {
			return
		}
		if h := r.tl.hostAround(t.Unix()); h != nil && h.Mysqld != nil {
			h.Mysqld.Clients = q
		}
	})
}

// variablePort is the server's TCP port; "" when it listens on none.
func variablePort(vars map[string]string) string {
	p := vars["port"]
	if n, err := strconv.ParseUint(p, 10, 16); err != nil || n == 0 {
		return ""
	}
	return p
}

// netstatClientQueues reads one netstat -antp copy: "Proto Recv-Q Send-Q
// Local Foreign State PID/Program". False when it holds no socket table.
func netstatClientQueues(lines []string, port string, pid int) (*snapshot.ClientQueues, bool) {
	q := &snapshot.ClientQueues{}
	table := false
	owner := strconv.Itoa(pid) + "/"
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) < 6 || !strings.HasPrefix(f[0], "tcp") {
			continue
		}
		table = true
		if f[5] != "ESTABLISHED" || !strings.HasSuffix(f[3], ":"+port) ||
			(pid > 0 && len(f) > 6 && f[6] != "-" && !strings.HasPrefix(f[6], owner)) {
			continue
		}
		recv, err1 := strconv.ParseUint(f[1], 10, 64)
		send, err2 := strconv.ParseUint(f[2], 10, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		q.Connections++
		q.RecvBytes += recv
		if send > 0 {
			q.Sending++
			q.SendBytes += send
		}
	}
	return q, table
}
