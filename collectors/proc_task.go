package collectors

import (
	"bytes"
	"errors"
	"strconv"
	"syscall"

	"github.com/mytop-go/mytop-go/snapshot"
)

// procReader reads small procfs files into one reused buffer with plain
// system calls: at thousands of busy threads a tick opens thousands of files,
// and an os.File per open (with its finalizer and poller registration) is
// most of what that would cost.
type procReader struct {
	buf  []byte
	path []byte
}

// read returns the contents of path, valid until the next read. procfs
// files are generated whole on the first read, so one read with room to
// spare gets all of it; a file that fills the buffer is read again with a
// larger one.
func (r *procReader) read(path string) ([]byte, error) {
	if r.buf == nil {
		r.buf = make([]byte, 4096)
	}
	for {
		n, err := r.readOnce(path)
		if err != nil {
			return nil, err
		}
		if n < len(r.buf) {
			return r.buf[:n], nil
		}
		r.buf = make([]byte, 2*len(r.buf))
	}
}

func (r *procReader) readOnce(path string) (int, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0, err
	}
	defer syscall.Close(fd)
	for {
		n, err := syscall.Read(fd, r.buf)
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// taskPath is root/pid/task/tid/file (tid 0: root/pid/file), built in a
// reused buffer.
func (r *procReader) taskPath(root string, pid int, tid int64, file string) string {
	b := append(r.path[:0], root...)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(pid), 10)
	if tid != 0 {
		b = append(b, "/task/"...)
		b = strconv.AppendInt(b, tid, 10)
	}
	b = append(b, '/')
	b = append(b, file...)
	r.path = b
	return string(b)
}

// errBadStat is a stat line this parser does not understand.
var errBadStat = errors.New("unreadable /proc stat line")

// procStat is what the monitor takes from /proc/<pid>[/task/<tid>]/stat.
type procStat struct {
	comm         []byte // valid until the buffer's next read
	utime, stime uint64 // user and system CPU, clock ticks (userHZ)
	startTime    uint64 // clock ticks after boot; tells a reused pid apart
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
		case 14:
			st.utime = parseUint(f)
		case 15:
			st.stime = parseUint(f)
		case 22:
			st.startTime = parseUint(f)
		}
	}
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
