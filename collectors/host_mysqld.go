package collectors

import (
	"github.com/mytop-go/mytop-go/snapshot"
)

// mysqldProc samples the server process's own CPU time from
// /proc/<pid>/stat, the process found by the shared serverProc (so with
// several servers on one machine it is this one). It runs after the database
// collectors, when the variables are known, and only for a local server.
type mysqldProc struct {
	proc *serverProc
}

// fill sets s.Host.Mysqld; it leaves it nil when anything is missing.
func (m *mysqldProc) fill(s *snapshot.Snapshot) {
	if s.Host == nil || s.Host.Remote || m.proc == nil {
		return
	}
	pid, st, err := m.proc.stat(s.Time, s.Variables)
	if err != nil {
		return
	}
	s.Host.Mysqld = &snapshot.ProcessCPU{PID: pid,
		UserSeconds: float64(st.utime) / userHZ, SystemSeconds: float64(st.stime) / userHZ}
}
