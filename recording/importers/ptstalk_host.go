package importers

import (
	"strconv"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// Host figures of a pt-stalk collection. The `TS`-stamped copies of
// /proc/stat, /proc/diskstats and /proc/vmstat are real cumulative counters on
// a real clock, so they are preferred; vmstat's per-second figures (on the
// estimated clock) are used only when those are absent, and otherwise lend
// their memory columns. The two are never mixed across snapshots: their CPU
// counters are on different scales.

// userHZ is the kernel's clock tick for /proc/stat on every Linux a DBA meets.
const userHZ = 100

// sectorBytes is the unit of /proc/diskstats sector counts.
const sectorBytes = 512

func (r *ptReader) readHosts(_ []time.Time, base time.Time) error {
	vm, err := r.vmstatHosts(base)
	if err != nil {
		return err
	}
	stamped := map[int64]*snapshot.Host{}
	at := func(t time.Time) *snapshot.Host {
		sec := t.Unix()
		h := stamped[sec]
		if h == nil {
			h = &snapshot.Host{}
			if v := vm[sec]; v != nil {
				h.MemFree, h.MemBuffers, h.MemCached = v.MemFree, v.MemBuffers, v.MemCached
			}
			stamped[sec] = h
		}
		return h
	}
	readers := map[string]func(*snapshot.Host, []string){
		"procstat": applyProcStat, "diskstats": applyDiskstats, "procvmstat": applyProcVmstat,
	}
	stamps := map[string][]time.Time{}
	for part, apply := range readers {
		path, ok := r.g.files[part]
		if !ok {
			continue
		}
		err := r.eachTSBlock(path, func(t time.Time, lines []string) {
			stamps[part] = append(stamps[part], t)
			apply(at(t), lines)
		})
		if err != nil {
			return err
		}
	}
	for _, part := range []string{"procstat", "diskstats", "procvmstat"} {
		if len(stamps[part]) > 0 {
			r.loop = stamps[part]
			break
		}
	}
	_, procstat := r.g.files["procstat"]
	switch {
	case procstat && len(stamped) > 0, len(vm) == 0:
		r.tl.hosts = stamped
	default:
		r.tl.hosts = vm
		r.estimated = append(r.estimated, "vmstat")
		if len(stamped) > 0 {
			joinDisks(vm, stamped)
			r.sess.Notes = append(r.sess.Notes, "diskstats were joined to the vmstat samples of the same seconds "+
				"(no -procstat to carry them): vmstat's clock is estimated, the disks' is their own")
		}
	}
	return nil
}

// joinDisks gives each vmstat host the disks of the latest TS-stamped copy
// at most carrySeconds before it.
func joinDisks(vm, stamped map[int64]*snapshot.Host) {
	c := newCursor(sortedKeys(stamped))
	for _, sec := range sortedKeys(vm) {
		if at, ok := c.latest(sec, carrySeconds); ok && stamped[at].Disks != nil {
			h := *vm[sec]
			h.Disks = stamped[at].Disks
			vm[sec] = &h
		}
	}
}

// vmstatHosts accumulates the -vmstat rows, the i-th taken at base + i s
// (vmstat keeps its own one-second cadence).
func (r *ptReader) vmstatHosts(base time.Time) (map[int64]*snapshot.Host, error) {
	hosts := map[int64]*snapshot.Host{}
	path, ok := r.g.files["vmstat"]
	if !ok {
		return hosts, nil
	}
	var p parse.VmstatParser
	var acc parse.VmstatHost
	i := 0
	err := r.in.eachLine(path, func(n int, line string) {
		row, ok, err := p.Line(line)
		if err != nil {
			r.sess.Problems.add(path, n, err.Error())
			return
		}
		if ok {
			// the first row, averages since boot, only sets the base
			if h := acc.Add(row, 1); i > 0 {
				hosts[base.Add(time.Duration(i)*time.Second).Unix()] = h
			}
			i++
		}
	})
	return hosts, err
}

// eachTSBlock calls fn with the lines under each `TS <epoch> <date>` marker.
func (r *ptReader) eachTSBlock(path string, fn func(time.Time, []string)) error {
	var at time.Time
	var lines []string
	flush := func() {
		if !at.IsZero() {
			fn(at.In(r.loc), lines)
		}
		lines = nil
	}
	err := r.in.eachLine(path, func(n int, line string) {
		if t, ok := parseTSMarker(line, r.loc); ok {
			flush()
			at = t
			return
		}
		if at.IsZero() {
			if strings.TrimSpace(line) != "" {
				r.sess.Problems.add(path, n, "line before the first TS marker")
			}
			return
		}
		lines = append(lines, line)
	})
	flush()
	return err
}

// applyProcStat copies /proc/stat's CPU ticks, context switches, interrupts
// and run queue into h.
func applyProcStat(h *snapshot.Host, lines []string) {
	cpus := 0
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		switch {
		case f[0] == "cpu":
			h.CPU = cpuTicks(f[1:])
		case strings.HasPrefix(f[0], "cpu"):
			cpus++
		case f[0] == "ctxt":
			h.ContextSwitches = atou(f[1])
		case f[0] == "intr":
			h.Interrupts = atou(f[1])
		case f[0] == "procs_running":
			h.ProcsRunning = int64(atou(f[1]))
		case f[0] == "procs_blocked":
			h.ProcsBlocked = int64(atou(f[1]))
		}
	}
	h.NumCPU = cpus
}

// cpuTicks reads "user nice system idle iowait irq softirq steal" ticks.
func cpuTicks(f []string) snapshot.CPUTimes {
	v := make([]float64, 8)
	for i := 0; i < len(v) && i < len(f); i++ {
		v[i] = float64(atou(f[i])) / userHZ
	}
	return snapshot.CPUTimes{User: v[0], Nice: v[1], System: v[2], Idle: v[3], IOWait: v[4], IRQ: v[5], SoftIRQ: v[6], Steal: v[7]}
}

// applyDiskstats reads /proc/diskstats rows of devices that did any I/O. A
// later block in the same second replaces the devices of an earlier one, as
// it does the other counters, rather than listing them twice.
func applyDiskstats(h *snapshot.Host, lines []string) {
	h.Disks = nil
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) < 14 {
			continue
		}
		d := snapshot.DiskCounters{
			Name: f[2], Reads: atou(f[3]), ReadBytes: atou(f[5]) * sectorBytes, ReadTimeMS: atou(f[6]),
			Writes: atou(f[7]), WriteBytes: atou(f[9]) * sectorBytes, WriteMS: atou(f[10]),
			IOTimeMS: atou(f[12]), WeightedIOMS: atou(f[13]),
		}
		if d.Reads+d.Writes > 0 {
			h.Disks = append(h.Disks, d)
		}
	}
}

// applyProcVmstat reads swap page counters from /proc/vmstat.
func applyProcVmstat(h *snapshot.Host, lines []string) {
	for _, line := range lines {
		name, value, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		switch name {
		case "pswpin":
			h.SwapInPages = atou(value)
		case "pswpout":
			h.SwapOutPages = atou(value)
		}
	}
}

func atou(s string) uint64 {
	v, _ := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	return v
}
