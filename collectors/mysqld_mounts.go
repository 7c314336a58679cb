package collectors

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A mysqld in another mount namespace (a container sharing the host's
// network) sees its datadir, tmpdir and error log at paths that are not this
// machine's: the same path here is another filesystem, or another server's.
// Its files are then read through /proc/<pid>/root, and the block devices
// that hold them come from its own /proc/<pid>/mountinfo.

// mountView is what was learnt of mysqld's mount namespace.
type mountView struct {
	pid    int
	other  bool // another mount namespace than the monitor's
	at     time.Time
	mounts []snapshot.Mount
}

// view checks, once per process found, whether mysqld shares the monitor's
// mount namespace: the same mount id at "/" in both mount tables. A table
// that cannot be read counts as shared (the usual case, and what the monitor
// did before it could tell).
func (p *serverProc) view() *mountView {
	if p.ns.pid != p.pid {
		self := rootMountID(filepath.Join(p.root, "self", "mountinfo"))
		its := rootMountID(filepath.Join(p.root, strconv.Itoa(p.pid), "mountinfo"))
		p.ns = mountView{pid: p.pid, other: self != "" && its != "" && self != its}
	}
	return &p.ns
}

// fsRoot is the prefix under which mysqld's own paths are read here: "" in
// the monitor's mount namespace, /proc/<pid>/root in another; ok is false
// when mysqld is not found.
func (p *serverProc) fsRoot() (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pid == 0 {
		return "", false
	}
	if p.view().other {
		return filepath.Join(p.root, strconv.Itoa(p.pid), "root"), true
	}
	return "", true
}

// ownMounts is mysqld's block-device mount table when it is in another mount
// namespace (read every mountsEvery), else nil: the host's table holds its
// directories.
func (p *serverProc) ownMounts(now time.Time) []snapshot.Mount {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pid == 0 {
		return nil
	}
	v := p.view()
	if !v.other {
		return nil
	}
	if v.at.IsZero() || now.Sub(v.at) >= mountsEvery {
		v.mounts, v.at = blockMountsFrom(filepath.Join(p.root, strconv.Itoa(p.pid), "mountinfo"), p.sys), now
	}
	return v.mounts
}

// rootMountID is the mount id of the last mount at "/" in a mountinfo file,
// "" when it cannot be read.
func rootMountID(file string) string {
	b, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	id := ""
	for line := range procLines(b) {
		f := strings.Fields(string(line))
		if len(f) > 4 && f[4] == "/" {
			id = f[0]
		}
	}
	return id
}
