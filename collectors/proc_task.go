package collectors

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
	"unsafe"

	"github.com/mytop-go/mytop-go/snapshot"
)

// procReader reads small procfs files into one reused buffer with plain
// system calls: at thousands of busy threads a tick opens thousands of files,
// and an os.File per open (with its finalizer and poller registration) is
// most of what that would cost. The path is built in a reused buffer too and
// handed to openat as it is, so a read allocates nothing.
type procReader struct {
	buf  []byte
	path []byte // NUL-terminated
	// fds are the descriptors kept open between ticks (proc_fdcache.go).
	fds   map[taskFile]cachedFD
	round uint64
	// checkedRoot is the root last found to be procfs (procfs) or not.
	checkedRoot string
	procfs      bool
}

// readTask returns the contents of root/pid/task/tid/file (tid 0:
// root/pid/file), valid until the next read. The file's descriptor is kept
// open for the next tick's read (proc_fdcache.go).
func (r *procReader) readTask(root string, pid int, tid int64, file string) ([]byte, error) {
	if r.buf == nil {
		r.buf = make([]byte, 4096)
	}
	f := taskFile{pid: pid, tid: tid, file: file}
	if n, ok := r.readCached(f); ok {
		if n < len(r.buf) {
			return r.buf[:n], nil
		}
		r.drop(f, r.fds[f].fd) // grown past the buffer: read whole below
	}
	r.setPath(root, pid, tid, file)
	for {
		fd, err := r.open()
		if err != nil {
			return nil, err
		}
		n, err := readFD(fd, r.buf)
		if err == nil && n < len(r.buf) {
			if !r.keep(root, f, fd) {
				syscall.Close(fd)
			}
			return r.buf[:n], nil
		}
		syscall.Close(fd)
		if err != nil {
			return nil, err
		}
		r.buf = make([]byte, 2*len(r.buf))
	}
}

// read returns the contents of r.path. procfs files are generated whole on
// the first read, so one read with room to spare gets all of it; a file
// that fills the buffer is read again with a larger one.
func (r *procReader) read() ([]byte, error) {
	if r.buf == nil {
		r.buf = make([]byte, 4096)
	}
	for {
		n, err := r.readOnce()
		if err != nil {
			return nil, err
		}
		if n < len(r.buf) {
			return r.buf[:n], nil
		}
		r.buf = make([]byte, 2*len(r.buf))
	}
}

// atFDCWD is AT_FDCWD (a path relative to the working directory; ours are absolute).
var atFDCWD = -0x64

func (r *procReader) readOnce() (int, error) {
	fd, err := r.open()
	if err != nil {
		return 0, err
	}
	defer syscall.Close(fd)
	return readFD(fd, r.buf)
}

// open opens r.path read-only.
func (r *procReader) open() (int, error) {
	for {
		fd, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(atFDCWD), uintptr(unsafe.Pointer(&r.path[0])),
			uintptr(syscall.O_RDONLY|syscall.O_CLOEXEC), 0, 0, 0)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			return 0, &os.PathError{Op: "open", Path: string(r.path[:len(r.path)-1]), Err: errno}
		}
		return int(fd), nil
	}
}

func readFD(fd int, buf []byte) (int, error) {
	for {
		n, err := syscall.Read(fd, buf)
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// taskPath is root/pid/task/tid/file (tid 0: root/pid/file).
func (r *procReader) taskPath(root string, pid int, tid int64, file string) string {
	r.setPath(root, pid, tid, file)
	return string(r.path[:len(r.path)-1])
}

func (r *procReader) setPath(root string, pid int, tid int64, file string) {
	b := append(r.path[:0], root...)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(pid), 10)
	if tid != 0 {
		b = append(b, "/task/"...)
		b = strconv.AppendInt(b, tid, 10)
	}
	b = append(b, '/')
	b = append(b, file...)
	r.path = append(b, 0)
}

// errBadStat is a stat line this parser does not understand.
var errBadStat = errors.New("unreadable /proc stat line")

// procStat is what the monitor takes from /proc/<pid>[/task/<tid>]/stat.
type procStat struct {
	comm         []byte // valid until the buffer's next read
	state        byte   // R running or runnable, S sleeping, D disk wait...
	utime, stime uint64 // user and system CPU, clock ticks (userHZ)
	startTime    uint64 // clock ticks after boot; tells a reused pid apart
	rssPages     uint64 // resident pages of the process (its threads share them); 0 if absent
}

func (st procStat) cpuTicks() uint64 { return st.utime + st.stime }

// parseTaskStat reads "pid (comm) state ppid ..." where comm may hold spaces
// and parentheses: the fields are counted from the last ')'. It is the one
// parser of a process's or a thread's stat line.
func parseTaskStat(b []byte) (procStat, error) {
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return procStat{}, errBadStat
	}
	st := procStat{comm: b[open+1 : end]}
	rest := b[end+1:]
	// After comm: state(3) ... utime(14) stime(15) ... starttime(22).
	for i := 3; i <= 22; i++ {
		var f []byte
		f, rest = nextField(rest)
		if len(f) == 0 {
			return procStat{}, errBadStat
		}
		switch i {
		case 3:
			st.state = f[0]
		case 14:
			st.utime = parseUint(f)
		case 15:
			st.stime = parseUint(f)
		case 22:
			st.startTime = parseUint(f)
		}
	}
	_, rest = nextField(rest) // vsize(23)
	f, _ := nextField(rest)
	st.rssPages = parseUint(f)
	return st, nil
}

// parseTaskIO takes read_bytes and write_bytes from /proc/.../io: what went
// to or came from storage, unlike rchar/wchar which count page-cache hits.
func parseTaskIO(b []byte, c *snapshot.TaskCounters) {
	for line := range procLines(b) {
		key, rest := nextField(line)
		switch string(key) {
		case "read_bytes:":
			c.ReadBytes = firstUint(rest)
		case "write_bytes:":
			c.WriteBytes = firstUint(rest)
		}
	}
}
