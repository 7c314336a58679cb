package collectors

import (
	"os"

	"github.com/mytop-go/mytop-go/snapshot"
)

// mysqldProc samples the server process's own CPU time and resident size
// from /proc/<pid>/stat, the process found by the shared serverProc (so with
// several servers on one machine it is this one), and the memory limit of
// the cgroups holding it. It runs after the database collectors, when the
// variables are known. It is also where the host panel learns that the
// server is not confirmed to run here: this machine's figures are then
// replaced by the reason.
type mysqldProc struct {
	proc    *serverProc
	mem     cgroupMem
	clients clientQueues
}

// pageSize is the unit of stat's rss field.
var pageSize = uint64(os.Getpagesize())

// fill sets s.Host.Mysqld; it leaves it nil when anything is missing, and
// makes s.Host not local, with the reason, when mysqld is not confirmed.
func (m *mysqldProc) fill(s *snapshot.Snapshot) {
	if s.Host == nil || s.Host.Remote || m.proc == nil {
		return
	}
	pid, st, err := m.proc.stat(s.Time, s)
	if why := notLocalWhy(err); why != "" {
		s.Host = &snapshot.Host{Remote: true, Hostname: s.Host.Hostname, NotLocal: why}
		return
	}
	if err != nil {
		return
	}
	if own := m.proc.ownMounts(s.Time); own != nil {
		s.Host.Mounts = own
	}
	p := &snapshot.ProcessCPU{PID: pid,
		UserSeconds: float64(st.utime) / userHZ, SystemSeconds: float64(st.stime) / userHZ,
		RSSBytes: st.rssPages * pageSize}
	p.MemLimit, p.MemUsed = m.mem.read(m.proc.root, pid, s.Time)
	p.Clients = m.clients.read(m.proc.root, pid, serverPort(s.Variables), s.Time)
	s.Host.Mysqld = p
}
