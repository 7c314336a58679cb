package collectors

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// mountsEvery is how often the mount table is read again: mounts change
// rarely, and the table is read from three files per mount.
const mountsEvery = time.Minute

// blockMounts reads procRoot/self/mountinfo and resolves each mount of a
// block device (major not 0) to the device /proc/diskstats names for it: the
// whole disk for a partition (sysRoot/dev/block/M:m/partition exists), else
// the device itself (dm-N, md0, nvme0n1).
func blockMounts(procRoot, sysRoot string) []snapshot.Mount {
	return blockMountsFrom(filepath.Join(procRoot, "self", "mountinfo"), sysRoot)
}

// blockMountsFrom reads the block mounts of one mount table (a process's
// /proc/<pid>/mountinfo).
func blockMountsFrom(file, sysRoot string) []snapshot.Mount {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var out []snapshot.Mount
	for line := range procLines(b) {
		pre, _, ok := strings.Cut(string(line), " - ")
		f := strings.Fields(pre)
		if !ok || len(f) < 5 || strings.HasPrefix(f[2], "0:") {
			continue
		}
		dev := blockDeviceName(sysRoot, f[2])
		if dev == "" {
			continue
		}
		out = append(out, snapshot.Mount{Point: unescapeMount(f[4]), Device: dev})
	}
	return out
}

// blockDeviceName resolves "maj:min" to the disk /proc/diskstats lists.
func blockDeviceName(sysRoot, majMin string) string {
	dir := filepath.Join(sysRoot, "dev", "block", majMin)
	target, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return ""
	}
	if _, err := os.Stat(filepath.Join(target, "partition")); err == nil {
		return filepath.Base(filepath.Dir(target))
	}
	return filepath.Base(target)
}

// rotational reads sysRoot/block/<name>/queue/rotational ("0", "1"), or "".
func rotational(sysRoot, name string) string {
	b, err := os.ReadFile(filepath.Join(sysRoot, "block", name, "queue", "rotational"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
