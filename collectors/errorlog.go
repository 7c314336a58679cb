package collectors

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// errorLog reads who the server refused (Snapshot.RefusedLogins) from the
// lines its error log gained since the previous read: the counters
// (Access_denied_errors, Aborted_connects) say how many, only the log says
// which account and host (MariaDB and MySQL 5.7 log each "Access denied for
// user" at log_warnings >= 2, the default; MySQL 8 at
// log_error_verbosity=3). It sends no statement: it reads the file, and only
// when mysqld is confirmed to run on this machine (serverProc; the file at
// that path may be another server's) and those counters moved since the
// previous tick, at most errorLogReadMax bytes a tick.
type errorLog struct {
	proc    *serverProc
	path    string
	offset  int64 // where the next read starts; -1 before the first look
	denied  string
	aborted string
}

// errorLogReadMax bounds one tick's read: an application refused 300 times a
// second writes ~30 KB a second.
const errorLogReadMax = 256 << 10

func newErrorLog(proc *serverProc) *errorLog { return &errorLog{proc: proc, offset: -1} }

// Name implements Collector.
func (e *errorLog) Name() snapshot.CollectorName { return snapshot.CollectorErrorLog }

// Collect implements Collector.
func (e *errorLog) Collect(_ context.Context, s *snapshot.Snapshot) error {
	if _, _, err := e.proc.stat(s.Time, s); err != nil {
		setUnavailable(s, snapshot.CollectorErrorLog, firstLine(err.Error())+": its error log is not read here")
		return nil
	}
	path, why := errorLogPath(s.Variables)
	if why != "" {
		setUnavailable(s, snapshot.CollectorErrorLog, why)
		return nil
	}
	if root, _ := e.proc.fsRoot(); root != "" {
		path = root + path
	}
	if path != e.path {
		e.path, e.offset = path, -1
	}
	denied, aborted := s.Status["Access_denied_errors"], s.Status["Aborted_connects"]
	moved := denied != e.denied || aborted != e.aborted
	e.denied, e.aborted = denied, aborted
	if e.offset >= 0 && !moved {
		return nil
	}
	r, err := e.readNew()
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			setUnavailable(s, snapshot.CollectorErrorLog, "cannot read "+path+": permission denied (run as mysqld's user or a member of its log's group)")
			return nil
		}
		setUnavailable(s, snapshot.CollectorErrorLog, firstLine(err.Error()))
		return nil
	}
	if r != nil {
		s.RefusedLogins = r
	}
	return nil
}

// readNew reads what was appended since the last read; the first read only
// finds the end. A log that shrank was rotated: it is read from its start.
func (e *errorLog) readNew() (*snapshot.RefusedLogins, error) {
	f, err := os.Open(e.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	if e.offset < 0 {
		e.offset = size
		return nil, nil
	}
	if size < e.offset {
		e.offset = 0
	}
	start, truncated := e.offset, false
	if size-start > errorLogReadMax {
		start, truncated = size-errorLogReadMax, true
	}
	buf := make([]byte, size-start)
	n, err := f.ReadAt(buf, start)
	if err != nil && err != io.EOF {
		return nil, err
	}
	buf = buf[:n]
	// Keep a partial last line for the next read.
	if i := strings.LastIndexByte(string(buf), '\n'); i >= 0 {
		buf = buf[:i+1]
	} else {
		buf = buf[:0]
	}
	e.offset = start + int64(len(buf))
	return &snapshot.RefusedLogins{Log: e.path, Refusals: parse.ParseRefusedLogins(string(buf)),
		Truncated: truncated}, nil
}

// errorLogPath is log_error made absolute against datadir, as the server
// does; why says when there is no file to read.
func errorLogPath(vars map[string]string) (path, why string) {
	p := strings.TrimSpace(vars["log_error"])
	switch {
	case len(vars) == 0:
		return "", "no variables read yet"
	case p == "" || p == "stderr":
		return "", "the error log goes to mysqld's standard error (log_error is not set)"
	case strings.HasPrefix(p, "/"):
		return p, ""
	}
	dir := strings.TrimSpace(vars["datadir"])
	if dir == "" {
		return "", "log_error " + p + " is relative and datadir is unknown"
	}
	if filepath.Ext(p) == "" {
		p += ".err"
	}
	return filepath.Join(dir, p), ""
}
