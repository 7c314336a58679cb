package collectors

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The memory limit mysqld lives under, from the cgroups that hold it: in a
// container or a systemd unit with MemoryMax, the OOM killer acts when the
// cgroup's usage reaches its limit, whatever the host's MemAvailable says.
// The limit may be set on mysqld's own cgroup or on any above it (a pod's,
// a slice's); the tightest one is the one that matters.

// cgroupMemCheckEvery is how often the cgroup path and its limits are read
// again; between checks only the limiting cgroup's usage is read (one small
// file).
const cgroupMemCheckEvery = 30 * time.Second

// cgroupNoLimit: v1 prints an unlimited limit as the largest page-aligned
// int64 (9223372036854771712); anything this large is no limit.
const cgroupNoLimit = uint64(1) << 60

// cgroupMem follows the limit and usage of mysqld's tightest memory cgroup.
type cgroupMem struct {
	pid     int
	checkAt time.Time
	limit   uint64
	usage   string // the usage file of the limiting cgroup; "" when none
}

// read returns the limit and usage for pid at now; zeros when no cgroup
// limits mysqld's memory or it cannot be seen from here.
func (c *cgroupMem) read(procRoot string, pid int, now time.Time) (limit, used uint64) {
	if pid != c.pid || !now.Before(c.checkAt) {
		c.pid, c.checkAt = pid, now.Add(cgroupMemCheckEvery)
		c.limit, c.usage = tightestMemLimit(procRoot, pid)
	}
	if c.usage == "" {
		return 0, 0
	}
	b, err := os.ReadFile(c.usage)
	if err != nil {
		c.usage, c.limit = "", 0
		return 0, 0
	}
	return c.limit, parseUint(trimSpace(b))
}

// tightestMemLimit walks from pid's memory cgroup up to the hierarchy's
// mount and returns the smallest limit with its cgroup's usage file. v2 is
// tried first, then v1's memory controller.
func tightestMemLimit(procRoot string, pid int) (limit uint64, usage string) {
	cg, err := os.ReadFile(filepath.Join(procRoot, strconv.Itoa(pid), "cgroup"))
	if err != nil {
		return 0, ""
	}
	mi, err := os.ReadFile(filepath.Join(procRoot, "self", "mountinfo"))
	if err != nil {
		return 0, ""
	}
	paths, mounts := parseProcCgroup(cg), parseMountinfo(mi)
	for _, h := range []struct{ key, max, cur string }{
		{"", "memory.max", "memory.current"},
		{"memory", "memory.limit_in_bytes", "memory.usage_in_bytes"},
	} {
		p, ok := paths[h.key]
		m, mok := mounts[h.key]
		if !ok || !mok {
			continue
		}
		dir, ok := m.dirOf(p)
		if !ok {
			continue
		}
		for d := dir; ; d = filepath.Dir(d) {
			if v, ok := readLimit(filepath.Join(d, h.max)); ok && (limit == 0 || v < limit) {
				limit, usage = v, filepath.Join(d, h.cur)
			}
			if d == m.point || len(d) <= len(m.point) || d == "/" {
				break
			}
		}
		if limit > 0 {
			return limit, usage
		}
	}
	return 0, ""
}

// readLimit reads a memory limit file; false for "max", an unlimited v1
// value, or a missing file (the root cgroup has none).
func readLimit(path string) (uint64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	s := strings.TrimSpace(string(b))
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v == 0 || v >= cgroupNoLimit {
		return 0, false
	}
	return v, true
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == ' ') {
		b = b[:len(b)-1]
	}
	return b
}
