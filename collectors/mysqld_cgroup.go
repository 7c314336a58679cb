package collectors

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// mysqld's CPU time from its cgroup, when it runs alone in one (systemd's
// mariadb.service or mysql.service, a container): /proc/<pid>/stat sums the
// CPU of every thread of the process, so at 5,000 connections the kernel
// walks 5,000 threads per read (do_task_stat, thread_group_cputime: ~8 % of
// the monitor's own CPU, the per-connection cost work), while a cgroup's counters are kept per
// cgroup and read in O(1).
//
// Only CPU comes from the cgroup. I/O stays on /proc/<pid>/io: the kernel
// counts read_bytes/write_bytes per task when the page is read in or
// dirtied (Documentation/filesystems/proc.rst, "/proc/<pid>/io"), while
// io.stat's rbytes/wbytes count bios issued to each block device
// (Documentation/admin-guide/cgroup-v2.rst, "IO Interface Files"): a
// stacked device (LVM, md, dm-crypt) counts the same bytes once per layer,
// writeback is charged to the cgroup only with the memory and io
// controllers on (cgroup-v2.rst, "Writeback"), and a page dirtied then
// truncated is in write_bytes (and cancelled_write_bytes), never in io.stat.
// Summed over devices it is a different figure; v1 blkio does not see
// buffered writeback at all.

// cgroupCheckEvery is how often the cgroup is checked again to hold mysqld
// and nothing else. Reading cgroup.procs walks the cgroup's tasks (every
// thread), so it is not done every tick; a process that joins mysqld's
// cgroup in between is counted as mysqld's for up to this long.
const cgroupCheckEvery = 30 * time.Second

// cgroupCPU reads a cgroup's user and system CPU time once check has found
// it to hold mysqld alone.
type cgroupCPU struct {
	file    string // cpu.stat (v2) or cpuacct.stat (v1); "" while not usable
	v2      bool
	pid     int
	checkAt time.Time
	// anchored: off holds /proc's figure minus the cgroup's, taken at one
	// moment, so the counter mysqld shows goes on from where /proc left it
	// (the cgroup also counts what ran in it before: ExecStartPre scripts, a
	// process that left) and rates across the switch stay true.
	anchored   bool
	offU, offS int64
	rd         procReader
}

// due reports that the cgroup should be (re)checked for pid at now.
func (c *cgroupCPU) due(pid int, now time.Time) bool {
	return pid != c.pid || !now.Before(c.checkAt)
}

// check finds pid's cgroup from procRoot/<pid>/cgroup and the mount points
// from procRoot/self/mountinfo, and keeps it when it holds pid alone. v2 is
// preferred: its cpu.stat is there without the cpu controller.
func (c *cgroupCPU) check(procRoot string, pid int, now time.Time) {
	file, v2, _ := ownCgroupFile(procRoot, pid)
	if file != c.file || pid != c.pid {
		c.anchored = false
	}
	c.pid, c.checkAt = pid, now.Add(cgroupCheckEvery)
	c.file, c.v2 = file, v2
}

// forget makes the next tick check again and anchor anew: the server
// restarted, perhaps under the same pid, and its CPU starts from zero.
func (c *cgroupCPU) forget() { c.pid, c.anchored = 0, false }

// ownCgroupFile is pid's cgroup CPU file when pid is alone in its cgroup, else
// "" and why not.
func ownCgroupFile(procRoot string, pid int) (file string, v2 bool, why string) {
	cg, err := os.ReadFile(filepath.Join(procRoot, strconv.Itoa(pid), "cgroup"))
	if err != nil {
		return "", false, err.Error()
	}
	mi, err := os.ReadFile(filepath.Join(procRoot, "self", "mountinfo"))
	if err != nil {
		return "", false, err.Error()
	}
	paths, mounts := parseProcCgroup(cg), parseMountinfo(mi)
	why = "mysqld's cgroup has no cpu.stat or cpuacct.stat visible here"
	for _, h := range []struct {
		key, file string
	}{{"", "cpu.stat"}, {"cpuacct", "cpuacct.stat"}} {
		p, ok := paths[h.key]
		m, mok := mounts[h.key]
		if !ok || !mok {
			continue
		}
		dir, ok := m.dirOf(p)
		if !ok {
			continue
		}
		if p == "/" {
			why = "mysqld runs in the root cgroup, shared with everything"
			continue
		}
		if err := aloneIn(dir, pid); err != nil {
			why = err.Error()
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, h.file)); err == nil {
			return filepath.Join(dir, h.file), h.key == "", ""
		}
	}
	return "", false, why
}

// aloneIn checks that dir's cgroup.procs lists pid and nothing else, and
// that no cgroup below it holds a process: the cgroup's counters include
// its descendants'.
func aloneIn(dir string, pid int) error {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		return err
	}
	if strings.TrimSpace(string(b)) != strconv.Itoa(pid) {
		return errors.New("mysqld shares its cgroup " + dir + " with other processes")
	}
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || p == dir {
			return err
		}
		if b, err := os.ReadFile(filepath.Join(p, "cgroup.procs")); err != nil || len(bytes.TrimSpace(b)) > 0 {
			return errors.New("a cgroup below mysqld's holds other processes: " + p)
		}
		return nil
	})
}

// read returns the cgroup's user and system CPU in clock ticks (userHZ), the
// unit of /proc/<pid>/stat.
func (c *cgroupCPU) read() (utime, stime uint64, err error) {
	c.rd.path = append(append(c.rd.path[:0], c.file...), 0)
	b, err := c.rd.read()
	if err != nil {
		return 0, 0, err
	}
	if c.v2 {
		return parseCPUStat(b)
	}
	return parseCpuacctStat(b)
}

// anchor takes the offsets from /proc's figures and the cgroup's read now.
func (c *cgroupCPU) anchor(procU, procS, cgU, cgS uint64) {
	c.offU, c.offS, c.anchored = int64(procU)-int64(cgU), int64(procS)-int64(cgS), true
}

// shifted is a cgroup figure on /proc's scale.
func shifted(v uint64, off int64) uint64 {
	return uint64(max(0, int64(v)+off))
}

// parseCPUStat takes user_usec and system_usec from a v2 cpu.stat, in ticks.
func parseCPUStat(b []byte) (utime, stime uint64, err error) {
	u, s, ok := userSystem(b, "user_usec", "system_usec")
	if !ok {
		return 0, 0, errors.New("cpu.stat without user_usec and system_usec")
	}
	return u * userHZ / 1e6, s * userHZ / 1e6, nil
}

// parseCpuacctStat takes user and system from a v1 cpuacct.stat, already in
// USER_HZ ticks.
func parseCpuacctStat(b []byte) (utime, stime uint64, err error) {
	u, s, ok := userSystem(b, "user", "system")
	if !ok {
		return 0, 0, errors.New("cpuacct.stat without user and system")
	}
	return u, s, nil
}

// userSystem reads the two named counters of a "key value" file; ok only
// when both are there.
func userSystem(b []byte, userKey, systemKey string) (user, system uint64, ok bool) {
	var seen int
	for line := range procLines(b) {
		key, rest := nextField(line)
		switch string(key) {
		case userKey:
			user, seen = firstUint(rest), seen+1
		case systemKey:
			system, seen = firstUint(rest), seen+1
		}
	}
	return user, system, seen == 2
}

// parseProcCgroup reads /proc/<pid>/cgroup ("id:controllers:path") into the
// path per controller; "" is the v2 (unified) hierarchy, id 0 with no
// controllers. A v1 line "4:cpu,cpuacct:/x" gives both "cpu" and "cpuacct".
func parseProcCgroup(b []byte) map[string]string {
	out := map[string]string{}
	for line := range procLines(b) {
		id, rest, ok := strings.Cut(string(line), ":")
		ctrls, path, ok2 := strings.Cut(rest, ":")
		if !ok || !ok2 {
			continue
		}
		if id == "0" && ctrls == "" {
			out[""] = path
			continue
		}
		for _, c := range strings.Split(ctrls, ",") {
			out[c] = path
		}
	}
	return out
}

// cgroupMount is where a hierarchy is mounted, and which of its cgroups
// is the mount's root (not "/" inside a container's cgroup namespace
// or a bind mount of a subtree).
type cgroupMount struct{ root, point string }

// dirOf is the directory of the cgroup at path (as /proc/<pid>/cgroup names
// it), false when this mount does not show it.
func (m cgroupMount) dirOf(path string) (string, bool) {
	if m.root == "/" {
		return filepath.Join(m.point, path), true
	}
	if path == m.root || strings.HasPrefix(path, m.root+"/") {
		return filepath.Join(m.point, strings.TrimPrefix(path, m.root)), true
	}
	return "", false
}

// parseMountinfo finds the cgroup2 mount ("") and the v1 mount of each
// controller in /proc/self/mountinfo: "id parent maj:min root point opts
// [optional...] - fstype source superopts". The first mount of each wins.
func parseMountinfo(b []byte) map[string]cgroupMount {
	out := map[string]cgroupMount{}
	for line := range procLines(b) {
		pre, post, ok := strings.Cut(string(line), " - ")
		f, g := strings.Fields(pre), strings.Fields(post)
		if !ok || len(f) < 5 || len(g) < 3 {
			continue
		}
		m := cgroupMount{root: unescapeMount(f[3]), point: unescapeMount(f[4])}
		var keys []string
		switch g[0] {
		case "cgroup2":
			keys = []string{""}
		case "cgroup":
			keys = strings.Split(g[2], ",")
		}
		for _, k := range keys {
			if _, seen := out[k]; !seen {
				out[k] = m
			}
		}
	}
	return out
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
