package collectors

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// mysqldProc samples the server process's own CPU time from
// /proc/<pid>/stat, the pid read from the server's pid_file (so with several
// servers on one machine it is this one). It runs after the database
// collectors, when the variables are known, and only for a local server.
type mysqldProc struct {
	procRoot string
	pidFile  string
	pid      int
}

// clockTicks is USER_HZ, which Linux fixes at 100 for /proc's tick counts.
const clockTicks = 100

// fill sets s.Host.Mysqld; it leaves it nil when anything is missing.
func (m *mysqldProc) fill(s *snapshot.Snapshot) {
	if s.Host == nil || s.Host.Remote {
		return
	}
	pf := pidFilePath(s.Variables)
	if pf == "" {
		return
	}
	if pf != m.pidFile || m.pid == 0 {
		m.pidFile, m.pid = pf, readPid(pf)
	}
	cpu, ok := readProcCPU(m.root(), m.pid)
	if !ok {
		m.pid = 0 // restarted, or not readable: look the pid up again next tick
		return
	}
	s.Host.Mysqld = &cpu
}

func (m *mysqldProc) root() string {
	if m.procRoot == "" {
		return "/proc"
	}
	return m.procRoot
}

// pidFilePath is pid_file, made absolute against datadir as the server does.
func pidFilePath(vars map[string]string) string {
	pf := strings.TrimSpace(vars["pid_file"])
	if pf == "" || filepath.IsAbs(pf) {
		return pf
	}
	if dd := strings.TrimSpace(vars["datadir"]); dd != "" {
		return filepath.Join(dd, pf)
	}
	return ""
}

func readPid(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// readProcCPU reads utime and stime of a mysqld/mariadbd process.
func readProcCPU(root string, pid int) (snapshot.ProcessCPU, bool) {
	if pid <= 0 {
		return snapshot.ProcessCPU{}, false
	}
	b, err := os.ReadFile(filepath.Join(root, strconv.Itoa(pid), "stat"))
	if err != nil {
		return snapshot.ProcessCPU{}, false
	}
	return parsePidStat(b, pid)
}

// parsePidStat reads "pid (comm) state ppid ... utime stime ...": the
// command may hold spaces and parentheses, so fields count from the last ')'.
func parsePidStat(b []byte, pid int) (snapshot.ProcessCPU, bool) {
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return snapshot.ProcessCPU{}, false
	}
	comm := string(b[open+1 : end])
	if !strings.Contains(comm, "mysqld") && !strings.Contains(comm, "mariadbd") {
		return snapshot.ProcessCPU{}, false // the pid was reused by another program
	}
	f := strings.Fields(string(b[end+1:]))
	// After the command: state(0) ppid(1) ... utime(11) stime(12).
	if len(f) < 13 {
		return snapshot.ProcessCPU{}, false
	}
	ut, err1 := strconv.ParseFloat(f[11], 64)
	st, err2 := strconv.ParseFloat(f[12], 64)
	if err1 != nil || err2 != nil {
		return snapshot.ProcessCPU{}, false
	}
	return snapshot.ProcessCPU{PID: pid, UserSeconds: ut / clockTicks, SystemSeconds: st / clockTicks}, true
}
