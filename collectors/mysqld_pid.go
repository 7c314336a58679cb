package collectors

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// serverProc is the one finder of the server's process on this machine,
// shared by the host panel, the per-thread reads, the free space and the
// error log: it finds the process once and confirms it is the server
// (locate, mysqld_locate.go), keeps it while its stat line names the same
// server process, looks again at once when it is gone, and after a miss at
// most every pidRetryEvery.
type serverProc struct {
	// mu: the per-thread reads' prefetch asks from its own goroutine.
	mu            sync.Mutex
	root, address string
	// sys is where sysfs is mounted, for the block devices of mysqld's own
	// mount table; hostname is this machine's.
	sys, hostname string

	pid   int
	start uint64 // the process's start time: a pid reused by another program is told apart
	how   string // how the process was confirmed to be the server
	// proved: confirmed by the server's facts, not by holding the address
	// connected to; boot is this machine's boot time read then. Such a
	// process is checked against the server's Uptime every tick: the
	// forwarder may lead elsewhere now.
	proved  bool
	boot    time.Time
	retryAt time.Time
	err     error
	rd      procReader
	// cg gives the CPU figures when mysqld is alone in its cgroup
	// (mysqld_cgroup.go); else they come from /proc/<pid>/stat.
	cg cgroupCPU
	ns mountView

	// The stat read at statAt, shared by the collectors of one tick.
	statAt time.Time
	last   procStat
}

func newServerProc(root, address string) *serverProc {
	name, _ := os.Hostname()
	return &serverProc{root: root, address: address, sys: "/sys", hostname: name}
}

// stat returns the server's pid and its stat figures for the tick at now
// (read once per tick, whoever asks first). s is a snapshot of the server
// (its variables and Uptime), for the facts that confirm its process when
// the address cannot; nil when none is known. A server that is not
// confirmed to run here is a notLocalError. comm in the result is not kept.
func (p *serverProc) stat(now time.Time, s *snapshot.Snapshot) (int, procStat, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pid != 0 && now.Equal(p.statAt) {
		return p.pid, p.last, nil
	}
	if p.pid != 0 {
		st, err := p.readNow(now)
		if err == nil && p.stillServer(factsOf(s)) {
			return p.pid, st, nil
		}
		// Restarted, or the pid is another program now, or the server
		// behind a forwarder is another one: look again at once.
		p.pid, p.retryAt = 0, time.Time{}
	}
	if now.Before(p.retryAt) {
		return 0, procStat{}, p.err
	}
	f := factsOf(s)
	pid, how, err := p.locate(f)
	if err == nil {
		p.pid, p.start, p.how = pid, 0, how
		var st procStat
		if st, err = p.readNow(now); err == nil {
			return pid, st, nil
		}
		p.pid = 0
		err = notLocal("mysqld pid %d went away as it was found", pid)
	}
	p.err = err
	if f.known() || !addressMayBeLocal(p.address) {
		p.retryAt = now.Add(pidRetryEvery)
	}
	return 0, procStat{}, err
}

// readNow reads the stat of the process found, from its cgroup when mysqld
// is alone in one; an error means it is gone.
func (p *serverProc) readNow(now time.Time) (procStat, error) {
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
		p.cg.forget()
		p.ns = mountView{}
		return procStat{}, err
	}
	p.start, p.statAt, p.last = st.startTime, now, st
	p.rd.endRound() // a restarted server's old pid is not read again
	return st, nil
}

// errGone: the process found earlier is gone or is another program now.
var errGone = errors.New("mysqld's process went away")

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

// isServerName reports a process name of a MySQL-family server.
func isServerName(comm string) bool { return infer.IsServerProcess(comm) }

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

// listenInodes are the inodes of the listening sockets addr names: a unix
// socket path, or host:port (":port" for any address). A TCP listener
// counts when it is bound to the address's IP or to every address; a host
// name (localhost) matches any.
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
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("server address %q: %v", addr, err)
	}
	port, err := strconv.ParseUint(portText, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("server port %q: %v", portText, err)
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	inodes := map[uint64]bool{}
	for _, f := range []string{"tcp", "tcp6"} {
		if err := tcpListenInodes(filepath.Join(root, "net", f), ip, uint16(port), inodes); err != nil && !os.IsNotExist(err) {
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

// tcpListenInodes adds the inodes of sockets listening (state 0A) on port,
// bound to ip or to every address (any, when ip is nil), from /proc/net/tcp
// or tcp6: "sl local_address rem_address st ... inode".
func tcpListenInodes(file string, ip net.IP, port uint16, inodes map[uint64]bool) error {
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
		hexIP, hexPort, ok := strings.Cut(fields[1], ":")
		p, err := strconv.ParseUint(hexPort, 16, 16)
		if !ok || err != nil || uint16(p) != port {
			continue
		}
		if bound := procNetIP(hexIP); ip != nil && bound != nil && !bound.IsUnspecified() && !bound.Equal(ip) {
			continue
		}
		if n, err := strconv.ParseUint(fields[9], 10, 64); err == nil {
			inodes[n] = true
		}
	}
	return sc.Err()
}

// procNetIP decodes an address of /proc/net/tcp (8 hex digits) or tcp6 (32):
// the kernel prints each 32-bit word of the address as a number in the
// machine's byte order; nil when it is neither.
func procNetIP(h string) net.IP {
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != 4 && len(b) != 16 {
		return nil
	}
	for i := 0; i < len(b); i += 4 {
		binary.NativeEndian.PutUint32(b[i:], binary.BigEndian.Uint32(b[i:]))
	}
	return net.IP(b)
}
