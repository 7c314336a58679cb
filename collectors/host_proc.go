package collectors

import (
	"bytes"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Parsers of /proc text. They work on the bytes as read, without splitting
// into strings, because the host collector runs every second.

// userHZ is the unit of /proc/stat CPU times; the kernel fixes it at 100 for
// user space on every architecture Linux supports.
const userHZ = 100

// sectorBytes is the unit of /proc/diskstats sector counts, whatever the
// device's real sector size.
const sectorBytes = 512

// parseProcStat fills CPU times, CPU count, interrupts, context switches and
// the running/blocked process counts from /proc/stat.
func parseProcStat(data []byte, h *snapshot.Host) {
	h.NumCPU = 0
	for line := range procLines(data) {
		key, rest := nextField(line)
		switch {
		case string(key) == "cpu":
			h.CPU = cpuTimes(rest)
		case bytes.HasPrefix(key, []byte("cpu")):
			h.NumCPU++
		case string(key) == "intr":
			h.Interrupts = firstUint(rest) // per-IRQ counts follow; not needed
		case string(key) == "ctxt":
			h.ContextSwitches = firstUint(rest)
		case string(key) == "procs_running":
			h.ProcsRunning = int64(firstUint(rest))
		case string(key) == "procs_blocked":
			h.ProcsBlocked = int64(firstUint(rest))
		}
	}
}

// cpuTimes reads "user nice system idle iowait irq softirq steal ..." ticks.
func cpuTimes(rest []byte) snapshot.CPUTimes {
	var v [8]float64
	for i := range v {
		var f []byte
		f, rest = nextField(rest)
		v[i] = float64(parseUint(f)) / userHZ
	}
	return snapshot.CPUTimes{User: v[0], Nice: v[1], System: v[2], Idle: v[3],
		IOWait: v[4], IRQ: v[5], SoftIRQ: v[6], Steal: v[7]}
}

// parseVMStat fills the swap-in and swap-out page counters from /proc/vmstat.
func parseVMStat(data []byte, h *snapshot.Host) {
	for line := range procLines(data) {
		if !bytes.HasPrefix(line, []byte("pswp")) {
			continue
		}
		key, rest := nextField(line)
		switch string(key) {
		case "pswpin":
			h.SwapInPages = firstUint(rest)
		case "pswpout":
			h.SwapOutPages = firstUint(rest)
		}
	}
}

// parseDiskstats appends one DiskCounters per block device of /proc/diskstats
// to dst, leaving out ram devices, partitions whose whole disk is listed too
// (their I/O is already counted in the disk's), and loop devices unless
// mountedLoop says one holds a mounted filesystem and it has been written to:
// a server's files on an image (its flushes are the ones its fsyncs wait
// for), not snap's read-only squashfs loops. name turns a device name into a
// string, so a caller can reuse the strings of earlier samples.
func parseDiskstats(data []byte, dst []snapshot.DiskCounters, name func([]byte) string, mountedLoop func([]byte) bool) []snapshot.DiskCounters {
	for line := range procLines(data) {
		_, rest := nextField(line) // major
		_, rest = nextField(rest)  // minor
		dev, rest := nextField(rest)
		loop := bytes.HasPrefix(dev, []byte("loop"))
		if len(dev) == 0 || bytes.HasPrefix(dev, []byte("ram")) || loop && (mountedLoop == nil || !mountedLoop(dev)) {
			continue
		}
		// Fields 12–17 (kernel 5.5+) end with flushes completed and the
		// time spent flushing: what an fsync costs the device.
		var f [17]uint64
		for i := range f {
			var b []byte
			b, rest = nextField(rest)
			f[i] = parseUint(b)
		}
		if loop && f[4] == 0 {
			continue
		}
		dst = append(dst, snapshot.DiskCounters{
			Name: name(dev), Reads: f[0], ReadBytes: f[2] * sectorBytes, ReadTimeMS: f[3],
			Writes: f[4], WriteBytes: f[6] * sectorBytes, WriteMS: f[7], IOTimeMS: f[9], WeightedIOMS: f[10],
			Flushes: f[15], FlushMS: f[16],
		})
	}
	return dropListedPartitions(dst)
}

func dropListedPartitions(disks []snapshot.DiskCounters) []snapshot.DiskCounters {
	kept := disks[:0]
	for _, d := range disks {
		if parent := partitionParent(d.Name); parent == "" || !hasDisk(disks, parent) {
			kept = append(kept, d)
		}
	}
	return kept
}

func hasDisk(disks []snapshot.DiskCounters, name string) bool {
	for _, d := range disks {
		if d.Name == name {
			return true
		}
	}
	return false
}

// partitionParent returns the whole-disk name of a partition by the kernel's
// naming rules (sda1 → sda, nvme0n1p2 → nvme0n1, mmcblk0p1 → mmcblk0), or ""
// when name is not a partition name. dm-N, mdN and the like are whole devices.
func partitionParent(name string) string {
	digits := len(name)
	for digits > 0 && name[digits-1] >= '0' && name[digits-1] <= '9' {
		digits--
	}
	if digits == len(name) || digits == 0 {
		return ""
	}
	base := name[:digits]
	if base[len(base)-1] == 'p' && len(base) > 1 && isASCIIDigit(base[len(base)-2]) {
		return base[:len(base)-1] // nvme0n1p2, mmcblk0p1, nbd0p1, md0p1
	}
	for _, p := range []string{"sd", "vd", "xvd", "hd"} {
		if strings.HasPrefix(base, p) && len(base) > len(p) && onlyLetters(base[len(p):]) {
			return base
		}
	}
	return ""
}

func isASCIIDigit(c byte) bool { return c >= '0' && c <= '9' }

func onlyLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// procLines yields each line of data, without copying.
func procLines(data []byte) func(func([]byte) bool) {
	return func(yield func([]byte) bool) {
		for len(data) > 0 {
			line := data
			if i := bytes.IndexByte(data, '\n'); i >= 0 {
				line, data = data[:i], data[i+1:]
			} else {
				data = nil
			}
			if !yield(line) {
				return
			}
		}
	}
}

// nextField returns the first space-separated field of b and what follows.
func nextField(b []byte) (field, rest []byte) {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	j := i
	for j < len(b) && b[j] != ' ' && b[j] != '\t' {
		j++
	}
	return b[i:j], b[j:]
}

func firstUint(b []byte) uint64 {
	f, _ := nextField(b)
	return parseUint(f)
}

// parseUint reads a decimal counter; anything malformed reads as 0.
func parseUint(b []byte) uint64 {
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0
		}
		v = v*10 + uint64(c-'0')
	}
	return v
}
