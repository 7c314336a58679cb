package testdb

import (
	"os"
	"path/filepath"
	"testing"
)

// StartRedoIn is Start with the redo log in dir (innodb_log_group_home_dir),
// e.g. on a SlowFlushDisk: the template's ib_logfile0 is moved there, as a
// DBA moves the log of a cleanly shut down server.
func StartRedoIn(t testing.TB, dir string, extraArgs ...string) *Server {
	t.Helper()
	return startWith(t, func(s *Server) error {
		to := filepath.Join(dir, "ib_logfile0")
		if _, err := os.Stat(to); err != nil { // moved already when a launch is retried
			if err := moveFile(filepath.Join(s.DataDir, "ib_logfile0"), to); err != nil {
				return err
			}
		}
		s.Args = append(s.Args, "--innodb-log-group-home-dir="+dir)
		return nil
	}, extraArgs)
}

// moveFile moves a file across filesystems.
func moveFile(from, to string) error {
	if os.Rename(from, to) == nil {
		return nil
	}
	if err := copyFile(from, to, 0o660); err != nil {
		return err
	}
	return os.Remove(from)
}
