package collectors

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/mytop-go/mytop-go/snapshot"
)

// diskSpace reads the free space of each distinct filesystem that holds the
// server's directories (datadir, tmpdir, binlog, redo, undo, relay log, Aria
// log) with one stat and one statfs per directory, into Snapshot.Filesystems.
// It runs only when mysqld is confirmed to run on this machine (serverProc),
// and reads its directories as mysqld sees them (through /proc/<pid>/root
// when it is in another mount namespace); the directories come from the
// variables read this tick. The calls run in a goroutine bounded by the
// tick: a hung network filesystem makes the part stale, never the tick late.
type diskSpace struct {
	proc    *serverProc
	last    []snapshot.Filesystem
	pending chan diskSpaceResult
}

type diskSpaceResult struct {
	fs  []snapshot.Filesystem
	err error
}

func newDiskSpace(proc *serverProc) *diskSpace { return &diskSpace{proc: proc} }

// Name implements Collector.
func (c *diskSpace) Name() snapshot.CollectorName { return snapshot.CollectorDiskSpace }

// Collect implements Collector.
func (c *diskSpace) Collect(ctx context.Context, s *snapshot.Snapshot) error {
	if _, _, err := c.proc.stat(s.Time, s); err != nil {
		c.last = nil
		setUnavailable(s, snapshot.CollectorDiskSpace, firstLine(err.Error())+": its filesystems are not read")
		return nil
	}
	root, _ := c.proc.fsRoot()
	dirs := serverDirs(s.Variables)
	if len(dirs) == 0 {
		c.carry(nil, s)
		return nil
	}
	if c.pending == nil {
		ch := make(chan diskSpaceResult, 1)
		c.pending = ch
		go func() {
			fs, err := statFilesystems(root, dirs)
			ch <- diskSpaceResult{fs, err}
		}()
	}
	select {
	case r := <-c.pending:
		c.pending = nil
		if r.fs != nil {
			c.last = r.fs
		}
		s.Filesystems = c.last
		return r.err
	case <-ctx.Done():
		s.Filesystems = c.last
		return errors.New("statfs did not answer within the tick")
	}
}

// carry keeps the last reading between reads.
func (c *diskSpace) carry(_, cur *snapshot.Snapshot) { cur.Filesystems = c.last }

// carrySkipped implements skipCarrier: free space does not vanish while the
// server cannot be asked for its variables.
func (c *diskSpace) carrySkipped(prev, cur *snapshot.Snapshot) { c.carry(prev, cur) }

// serverDir is one directory the server writes, with what it keeps there.
type serverDir struct{ role, dir string }

// serverDirs lists the server's directories from its variables, made
// absolute against datadir as the server does.
func serverDirs(vars map[string]string) []serverDir {
	datadir := strings.TrimSpace(vars["datadir"])
	if datadir == "" {
		return nil
	}
	datadir = filepath.Clean(datadir)
	abs := func(p string) string {
		p = strings.TrimSpace(p)
		if p == "" {
			return datadir
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(datadir, p)
		}
		return filepath.Clean(p)
	}
	out := []serverDir{{"datadir", datadir}}
	for _, t := range strings.Split(vars["tmpdir"], ":") {
		if strings.TrimSpace(t) != "" {
			out = append(out, serverDir{"tmpdir", abs(t)})
		}
	}
	if strings.EqualFold(strings.TrimSpace(vars["log_bin"]), "ON") && strings.TrimSpace(vars["log_bin_basename"]) != "" {
		out = append(out, serverDir{"binlog", filepath.Dir(abs(vars["log_bin_basename"]))})
	}
	for _, v := range []struct{ role, name string }{
		{"redo", "innodb_log_group_home_dir"}, {"innodb_data", "innodb_data_home_dir"},
		{"undo", "innodb_undo_directory"}, {"aria_log", "aria_log_dir_path"},
	} {
		if p, ok := vars[v.name]; ok {
			out = append(out, serverDir{v.role, abs(p)})
		}
	}
	if p := strings.TrimSpace(vars["relay_log_basename"]); p != "" {
		out = append(out, serverDir{"relay_log", filepath.Dir(abs(p))})
	}
	return out
}

// statFilesystems groups dirs by the device they are on and reads each
// device's filesystem once, each dir read under root (mysqld's own root when
// it is in another mount namespace; "" otherwise). Directories that do not
// exist are left out.
func statFilesystems(root string, dirs []serverDir) ([]snapshot.Filesystem, error) {
	var out []snapshot.Filesystem
	byDev := map[uint64]int{}
	var errs []error
	for _, d := range dirs {
		fi, err := os.Stat(root + d.dir)
		if err != nil {
			continue
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			continue
		}
		dev := uint64(st.Dev)
		if i, ok := byDev[dev]; ok {
			f := &out[i]
			if !contains(f.Roles, d.role) {
				f.Roles = append(f.Roles, d.role)
			}
			if !contains(f.Dirs, d.dir) {
				f.Dirs = append(f.Dirs, d.dir)
			}
			continue
		}
		var sf syscall.Statfs_t
		if err := syscall.Statfs(root+d.dir, &sf); err != nil {
			errs = append(errs, err)
			continue
		}
		bs := uint64(sf.Bsize)
		byDev[dev] = len(out)
		out = append(out, snapshot.Filesystem{Path: d.dir, Roles: []string{d.role}, Dirs: []string{d.dir},
			SizeBytes: uint64(sf.Blocks) * bs, AvailBytes: uint64(sf.Bavail) * bs, FreeBytes: uint64(sf.Bfree) * bs,
			Inodes: uint64(sf.Files), InodesFree: uint64(sf.Ffree)})
	}
	return out, errors.Join(errs...)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
