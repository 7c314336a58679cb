package collectors

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// serverProc is the one finder of the server's process on this machine,
// shared by the host panel's mysqld CPU and the per-thread reads: it finds
// the pid once (findServerPID, else the server's own pid_file), keeps it
// while its stat line names the same server process, and after a miss looks
// again at most every pidRetryEvery.
type serverProc struct {
	root, address string

	pid     int
	start   uint64 // the process's start time: a pid reused by another program is told apart
	retryAt time.Time
	err     error
	rd      procReader
	// cg gives the CPU figures when mysqld is alone in its cgroup
	// (mysqld_cgroup.go); else they come from /proc/<pid>/stat.
	cg cgroupCPU

	// The stat read at statAt, shared by the collectors of one tick.
	statAt time.Time
	last   procStat
}

func newServerProc(root, address string) *serverProc {
	return &serverProc{root: root, address: address}
}

// errGone: the process found earlier is gone or is another program now.
var errGone = errors.New("mysqld's process went away; looking for it again")

// stat returns the server's pid and its stat figures for the tick at now
// (read once per tick, whoever asks first). vars are the server's
// variables, for pid_file when the socket cannot tell. comm in the result
// is not kept.
func (p *serverProc) stat(now time.Time, vars map[string]string) (int, procStat, error) {
	if p.pid != 0 && now.Equal(p.statAt) {
		return p.pid, p.last, nil
	}
	if p.pid == 0 {
		if now.Before(p.retryAt) {
			return 0, procStat{}, p.err
		}
		pid, err := p.find(vars)
		if err != nil {
			p.err, p.retryAt = fmt.Errorf("mysqld's process not found: %w", err), now.Add(pidRetryEvery)
			return 0, procStat{}, p.err
		}
		p.pid, p.start = pid, 0
	}
	if p.cg.due(p.pid, now) {
		p.cg.check(p.root, p.pid, now)
	}
	fromCgroup := p.cg.file != "" && p.cg.anchored
	// From the cgroup, the main thread's stat (no walk of the other
	// threads) still tells a restarted server or a reused pid apart.
	tid := int64(0)
	if fromCgroup {
		tid = int64(p.pid)
	}
	st, err := p.readStat(tid)
	if err == nil && !p.cgroupCPU(&st, fromCgroup) {
		st, err = p.readStat(0)
	}
	if err != nil {
		p.pid = 0 // restarted: look again next tick
		p.cg.forget()
		return 0, procStat{}, errGone
	}
	p.start, p.statAt, p.last = st.startTime, now, st
	p.rd.endRound() // a restarted server's old pid is not read again
	return p.pid, st, nil
}

// readStat reads the stat line of the process (tid 0) or of one of its
// threads, and checks it still names the server found: a server restarted
// under the same pid, or another program, is told apart.
func (p *serverProc) readStat(tid int64) (procStat, error) {
	b, err := p.rd.readTask(p.root, p.pid, tid, "stat")
	var st procStat
	if err == nil {
		st, err = parseTaskStat(b)
	}
	if err != nil || !isServerName(string(st.comm)) || p.start != 0 && st.startTime != p.start {
		return procStat{}, errGone
	}
	st.comm = nil
	return st, nil
}

// cgroupCPU puts the cgroup's CPU figures in st when fromCgroup (st came
// from the main thread's stat, whose CPU is that thread's alone), or anchors
// the cgroup to st's process-wide figures the first tick it is usable. It
// is false when st still needs the process's figures from /proc: the cgroup
// could not be read, and is dropped until its next check.
func (p *serverProc) cgroupCPU(st *procStat, fromCgroup bool) bool {
	if p.cg.file == "" {
		return true
	}
	u, s, err := p.cg.read()
	switch {
	case err != nil:
		p.cg.file = ""
		return !fromCgroup
	case fromCgroup:
		st.utime, st.stime = shifted(u, p.cg.offU), shifted(s, p.cg.offS)
	default:
		p.cg.anchor(st.utime, st.stime, u, s)
	}
	return true
}

// find looks the pid up: from the socket, which names this very server, or
// else (another user's descriptors unreadable, a proxy in between) from
// pid_file when it names a running server process.
func (p *serverProc) find(vars map[string]string) (int, error) {
	pid, err := findServerPID(p.root, p.address)
	if err == nil {
		return pid, nil
	}
	if pf := pidFilePath(vars); pf != "" {
		if pid := readPid(pf); pid > 0 && p.isServer(pid) {
			return pid, nil
		}
	}
	return 0, err
}

func (p *serverProc) isServer(pid int) bool {
	comm, err := os.ReadFile(filepath.Join(p.root, strconv.Itoa(pid), "comm"))
	return err == nil && isServerName(string(bytes.TrimSpace(comm)))
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

// findServerPID finds the mysqld (or mariadbd) process that owns the
// listening socket of addr: a unix socket path, or host:port. It looks the
// socket's inode up in /proc/net/unix or /proc/net/tcp[6], then for a process
// named like a server that holds a descriptor on it, so another program on
// the same port or a second mysqld is never taken for this one.
func findServerPID(root, addr string) (int, error) {
	inodes, err := listenInodes(root, addr)
	if err != nil {
		return 0, err
	}
	if len(inodes) == 0 {
		return 0, fmt.Errorf("no socket listening on %s in %s/net", addr, root)
	}
	servers, err := serverProcesses(root)
	if err != nil {
		return 0, err
	}
	if len(servers) == 0 {
		return 0, errors.New("no mysqld or mariadbd process visible in " + root)
	}
	denied := 0
	for _, pid := range servers {
		owns, err := holdsSocket(root, pid, inodes)
		if owns {
			return pid, nil
		}
		if errors.Is(err, os.ErrPermission) {
			denied++
		}
	}
	if denied > 0 {
		return 0, fmt.Errorf("cannot see which mysqld owns %s: reading another user's /proc/<pid>/fd needs root or the server's user", addr)
	}
	return 0, fmt.Errorf("no mysqld or mariadbd process holds the socket of %s (a container or a proxy in between?)", addr)
}

// isServerName reports a process name of a MySQL-family server.
func isServerName(comm string) bool {
	return strings.Contains(comm, "mysqld") || strings.Contains(comm, "mariadbd")
}

// serverProcesses lists the pids whose name is a server's.
func serverProcesses(root string) ([]int, error) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		comm, err := os.ReadFile(filepath.Join(root, e.Name(), "comm"))
		if err == nil && isServerName(string(bytes.TrimSpace(comm))) {
			pids = append(pids, pid)
		}
	}
	return pids, nil
}

// holdsSocket reports whether pid has a descriptor on one of the inodes.
func holdsSocket(root string, pid int, inodes map[uint64]bool) (bool, error) {
	dir := filepath.Join(root, strconv.Itoa(pid), "fd")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false, err
	}
	for _, e := range ents {
		link, err := os.Readlink(filepath.Join(dir, e.Name()))
		if err != nil || !strings.HasPrefix(link, "socket:[") {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSuffix(link[len("socket:["):], "]"), 10, 64)
		if err == nil && inodes[n] {
			return true, nil
		}
	}
	return false, nil
}

// listenInodes are the inodes of the sockets addr names.
func listenInodes(root, addr string) (map[uint64]bool, error) {
	addr = strings.TrimSpace(addr)
	if strings.HasPrefix(addr, "unix(") && strings.HasSuffix(addr, ")") {
		addr = addr[len("unix(") : len(addr)-1]
	}
	if strings.HasPrefix(addr, "tcp(") && strings.HasSuffix(addr, ")") {
		addr = addr[len("tcp(") : len(addr)-1]
	}
	if strings.HasPrefix(addr, "/") || strings.HasPrefix(addr, "@") {
		return unixInodes(filepath.Join(root, "net", "unix"), addr)
	}
	_, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("server address %q: %v", addr, err)
	}
	port, err := strconv.ParseUint(portText, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("server port %q: %v", portText, err)
	}
	inodes := map[uint64]bool{}
	for _, f := range []string{"tcp", "tcp6"} {
		if err := tcpListenInodes(filepath.Join(root, "net", f), uint16(port), inodes); err != nil && !os.IsNotExist(err) {
			return nil, err
		}
	}
	return inodes, nil
}

// unixInodes reads /proc/net/unix: "Num RefCount Protocol Flags Type St
// Inode Path"; the listening socket and accepted ones carry the path.
func unixInodes(file, path string) (map[uint64]bool, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	inodes := map[uint64]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 8 || fields[7] != path {
			continue
		}
		if n, err := strconv.ParseUint(fields[6], 10, 64); err == nil {
			inodes[n] = true
		}
	}
	return inodes, sc.Err()
}

// tcpListenInodes adds the inodes of sockets listening (state 0A) on port
// from /proc/net/tcp or tcp6: "sl local_address rem_address st ... inode".
func tcpListenInodes(file string, port uint16, inodes map[uint64]bool) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 10 || fields[3] != "0A" {
			continue
		}
		_, hexPort, ok := strings.Cut(fields[1], ":")
		p, err := strconv.ParseUint(hexPort, 16, 16)
		if !ok || err != nil || uint16(p) != port {
			continue
		}
		if n, err := strconv.ParseUint(fields[9], 10, 64); err == nil {
			inodes[n] = true
		}
	}
	return sc.Err()
}
