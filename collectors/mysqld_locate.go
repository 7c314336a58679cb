package collectors

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Whether the server runs on this machine is decided from its process, never
// from the address alone: 127.0.0.1:3307 may be an SSH tunnel or a
// container's published port, and a socket path another instance's. The
// server is this machine's when:
//   - a mysqld (or mariadbd) holds the listening socket the monitor connects
//     to: nothing else can answer on it; or
//   - something else holds it (a forwarder), or whoever holds it cannot be
//     seen (another user's descriptors), and exactly one mysqld of this
//     machine proves to be the server by what the server says of itself: it
//     listens on @@port or @@socket, or @@pid_file names it (read only when
//     @@hostname is this machine's and @@datadir exists here); and then its
//     start time agrees with the server's Uptime, @@hostname is this
//     machine's, and its working directory, when readable, is @@datadir.
//
// Anything else is "not local", with the reason: the host panel, the
// per-thread CPU and I/O, the free space and the error log say so instead of
// showing this machine's figures as the server's.

// notLocalError says why the server was not confirmed to run here.
type notLocalError struct{ why string }

func (e *notLocalError) Error() string { return "not local: " + e.why }

func notLocal(format string, a ...any) error { return &notLocalError{fmt.Sprintf(format, a...)} }

// notLocalWhy is the reason of a notLocalError, or "".
func notLocalWhy(err error) string {
	var nl *notLocalError
	if errors.As(err, &nl) {
		return nl.why
	}
	return ""
}

// startSlack is how far a process's start may be from the start the server's
// Uptime gives: Uptime is whole seconds, btime too, and the server sets its
// start clock a moment after the process began.
const startSlack = 5 * time.Second

// serverFacts is what the server says of itself that can name its process.
type serverFacts struct {
	port     uint16
	socket   string
	hostname string
	datadir  string
	pidFile  string
	started  time.Time // the snapshot's time less Uptime; zero when unknown
}

// serverPort is @@port, 0 when unknown.
func serverPort(v map[string]string) uint16 {
	p, err := strconv.ParseUint(strings.TrimSpace(v["port"]), 10, 16)
	if err != nil {
		return 0
	}
	return uint16(p)
}

func factsOf(s *snapshot.Snapshot) serverFacts {
	if s == nil {
		return serverFacts{}
	}
	v := s.Variables
	f := serverFacts{socket: strings.TrimSpace(v["socket"]), hostname: strings.TrimSpace(v["hostname"]),
		datadir: strings.TrimSpace(v["datadir"]), pidFile: pidFilePath(v)}
	f.port = serverPort(v)
	if up, err := strconv.ParseInt(strings.TrimSpace(s.Status["Uptime"]), 10, 64); err == nil && up >= 0 && !s.Time.IsZero() {
		f.started = s.Time.Add(-time.Duration(up) * time.Second)
	}
	return f
}

// known: the variables were read (a server answered at least once).
func (f serverFacts) known() bool { return f.hostname != "" || f.datadir != "" || f.port != 0 }

// holders is who holds the listening sockets an address names.
type holders struct {
	servers []int
	other   string // "ssh (pid 812)": the first other holder seen
	denied  bool   // some server's descriptors could not be read
	none    bool   // no socket listens on the address here
}

// locate finds the server's process and says how it was confirmed, or why
// the server is not taken as this machine's; it sets p.proved.
func (p *serverProc) locate(f serverFacts) (int, string, error) {
	p.proved = false
	if !addressMayBeLocal(p.address) {
		return 0, "", notLocal("server is on another machine (%s)", p.address)
	}
	h, err := p.holdersOf(p.address, true)
	if err != nil {
		return 0, "", notLocal("%v", err)
	}
	if len(h.servers) == 1 {
		return h.servers[0], fmt.Sprintf("pid %d holds %s", h.servers[0], p.address), nil
	}
	// The address does not name the process: the server's own facts may.
	cands := h.servers
	var tried []string
	if f.port != 0 {
		if ph, err := p.holdersOf(fmt.Sprintf(":%d", f.port), false); err == nil {
			cands = append(cands, ph.servers...)
			h.denied = h.denied || ph.denied
		}
	}
	if f.socket != "" {
		if sh, err := p.holdersOf(f.socket, false); err == nil {
			cands = append(cands, sh.servers...)
			h.denied = h.denied || sh.denied
		}
	}
	if pid, why := p.pidFileServer(f); pid > 0 {
		cands = append(cands, pid)
	} else if why != "" {
		tried = append(tried, why)
	}
	var proved []int
	for _, pid := range dedupe(cands) {
		if why := p.proves(pid, f); why != "" {
			if !slices.Contains(tried, why) {
				tried = append(tried, why)
			}
		} else {
			proved = append(proved, pid)
		}
	}
	if len(proved) == 1 {
		p.proved = true
		return proved[0], fmt.Sprintf("pid %d is the server (%s): port %d, started %s, @@hostname %s",
			proved[0], describeHolder(h, p.address), f.port, f.started.Format(time.RFC3339), f.hostname), nil
	}
	why := describeHolder(h, p.address)
	switch {
	case len(proved) > 1:
		why += fmt.Sprintf("; %d mysqld processes here match the server, none for certain", len(proved))
	case !f.known():
		why += "; the server's variables are not read yet"
	case len(tried) > 0:
		why += "; no mysqld here is this server: " + strings.Join(tried, "; ")
	default:
		why += fmt.Sprintf("; no mysqld here listens on @@port %d or @@socket %q", f.port, f.socket)
	}
	return 0, "", notLocal("%s", why)
}

// describeHolder says who holds the address, for a reason.
func describeHolder(h holders, addr string) string {
	switch {
	case len(h.servers) > 1:
		return fmt.Sprintf("%d mysqld processes hold %s", len(h.servers), addr)
	case h.other != "":
		return fmt.Sprintf("%s is held by %s, not by a mysqld (a tunnel or a forwarder)", addr, h.other)
	case h.none && isSocketPath(addr):
		return fmt.Sprintf("nothing on this machine listens on %s", addr)
	case h.none:
		return fmt.Sprintf("nothing on this machine listens on %s (a container's published port?)", addr)
	case h.denied:
		return fmt.Sprintf("cannot see which process holds %s (another user's /proc/<pid>/fd needs root or the server's user)", addr)
	}
	return fmt.Sprintf("no process here holds %s", addr)
}

// holdersOf finds the processes holding the listening sockets of addr (a
// socket path, host:port, or ":port" for any address). With named, another
// program holding it is named (one pass over every process's descriptors,
// made only when no server holds it).
func (p *serverProc) holdersOf(addr string, named bool) (holders, error) {
	inodes, err := listenInodes(p.root, addr)
	if err != nil {
		return holders{}, err
	}
	if len(inodes) == 0 {
		return holders{none: true}, nil
	}
	var h holders
	ents, err := os.ReadDir(p.root)
	if err != nil {
		return h, err
	}
	var others []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		comm, err := os.ReadFile(filepath.Join(p.root, e.Name(), "comm"))
		if err != nil {
			continue
		}
		if !isServerName(string(bytes.TrimSpace(comm))) {
			others = append(others, pid)
			continue
		}
		owns, err := holdsSocket(p.root, pid, inodes)
		switch {
		case owns:
			h.servers = append(h.servers, pid)
		case errors.Is(err, os.ErrPermission):
			h.denied = true
		}
	}
	if len(h.servers) > 0 || !named {
		return h, nil
	}
	for _, pid := range others {
		if owns, _ := holdsSocket(p.root, pid, inodes); owns {
			comm, _ := os.ReadFile(filepath.Join(p.root, strconv.Itoa(pid), "comm"))
			h.other = fmt.Sprintf("%s (pid %d)", bytes.TrimSpace(comm), pid)
			break
		}
	}
	return h, nil
}

// pidFileServer is the server process @@pid_file names, read only when
// @@hostname is this machine's and @@datadir exists here (else the file at
// that path is another machine's server's, or none); why says what stopped it.
func (p *serverProc) pidFileServer(f serverFacts) (int, string) {
	if f.pidFile == "" {
		return 0, ""
	}
	if !p.sameHostname(f.hostname) {
		return 0, fmt.Sprintf("@@hostname %q is not this machine's (%q)", f.hostname, p.hostname)
	}
	if fi, err := os.Stat(f.datadir); err != nil || !fi.IsDir() {
		return 0, fmt.Sprintf("@@datadir %s is not a directory here", f.datadir)
	}
	pid := readPid(f.pidFile)
	if pid <= 0 {
		return 0, fmt.Sprintf("@@pid_file %s names no process", f.pidFile)
	}
	if !p.isServer(pid) {
		return 0, fmt.Sprintf("@@pid_file %s names pid %d, not a mysqld", f.pidFile, pid)
	}
	return pid, ""
}

func (p *serverProc) sameHostname(h string) bool {
	return h != "" && p.hostname != "" && strings.EqualFold(h, p.hostname)
}

// proves says why pid is not the server the facts describe, or "" when it is:
// the same hostname, a start time within startSlack of the server's, and,
// when readable, @@datadir as its working directory (mysqld works there).
func (p *serverProc) proves(pid int, f serverFacts) string {
	if !p.sameHostname(f.hostname) {
		return fmt.Sprintf("@@hostname %q is not this machine's (%q)", f.hostname, p.hostname)
	}
	if f.started.IsZero() {
		return fmt.Sprintf("pid %d: the server's Uptime is unknown", pid)
	}
	b, err := os.ReadFile(filepath.Join(p.root, strconv.Itoa(pid), "stat"))
	if err != nil {
		return fmt.Sprintf("pid %d: %v", pid, err)
	}
	st, err := parseTaskStat(b)
	if err != nil {
		return fmt.Sprintf("pid %d: %v", pid, err)
	}
	boot, err := bootTime(p.root)
	if err != nil {
		return fmt.Sprintf("pid %d: boot time: %v", pid, err)
	}
	p.boot = boot
	began := boot.Add(time.Duration(st.startTime) * time.Second / userHZ)
	if d := began.Sub(f.started); d > startSlack || d < -startSlack {
		return fmt.Sprintf("pid %d started at %s, the server at %s", pid, began.UTC().Format(time.TimeOnly),
			f.started.UTC().Format(time.TimeOnly))
	}
	if cwd, err := os.Readlink(filepath.Join(p.root, strconv.Itoa(pid), "cwd")); err == nil && f.datadir != "" &&
		!samePath(cwd, f.datadir) {
		return fmt.Sprintf("pid %d works in %s, not in @@datadir %s", pid, cwd, f.datadir)
	}
	return ""
}

// samePath: dir is the directory at (a resolved path), symlinks aside.
func samePath(at, dir string) bool {
	if filepath.Clean(at) == filepath.Clean(dir) {
		return true
	}
	real, err := filepath.EvalSymlinks(dir)
	return err == nil && filepath.Clean(at) == real
}

// stillServer: a process confirmed by the server's facts still has the
// server's start time (a server restarted elsewhere behind the same
// forwarder has another). Facts not read this tick keep it.
func (p *serverProc) stillServer(f serverFacts) bool {
	if !p.proved || f.started.IsZero() || p.boot.IsZero() {
		return true
	}
	began := p.boot.Add(time.Duration(p.start) * time.Second / userHZ)
	d := began.Sub(f.started)
	return d <= startSlack && d >= -startSlack && (f.hostname == "" || p.sameHostname(f.hostname))
}

// bootTime reads btime from root/stat.
func bootTime(root string) (time.Time, error) {
	fh, err := os.Open(filepath.Join(root, "stat"))
	if err != nil {
		return time.Time{}, err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "btime "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				return time.Time{}, err
			}
			return time.Unix(n, 0), nil
		}
	}
	return time.Time{}, errors.New("no btime line")
}

func isSocketPath(addr string) bool {
	return strings.HasPrefix(addr, "/") || strings.HasPrefix(addr, "@") || strings.HasPrefix(addr, "unix(")
}

func dedupe(pids []int) []int {
	var out []int
	for _, pid := range pids {
		if !slices.Contains(out, pid) {
			out = append(out, pid)
		}
	}
	return out
}
