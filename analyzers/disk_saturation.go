package analyzers

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// IDDiskSaturation names the findings of disk_saturation: a contract (the
// README's findings table), stable, never reused.
const IDDiskSaturation = "disk_saturation"

// DiskSaturationConfig holds disk_saturation's thresholds, each with its source
// and the trap it avoids.
type DiskSaturationConfig struct {
	// DiskUtilWarn % and DiskAwaitWarnMS come from the design brief (incident
	// 004: disks over 60 % busy or 35 ms service time), for spinning disks
	// only, and only devices holding the datadir, tmpdir, binlog or redo when
	// the mount table is known (trap: a busy disk that holds nothing of the
	// server's). DiskMinIOPS keeps a
	// single slow I/O on an idle disk from counting (UNKNOWN).
	// Trap: await over a near-zero number of I/Os (DiskMinIOPS).
	DiskUtilWarn    float64
	DiskAwaitWarnMS float64
	DiskMinIOPS     float64

	// DiskFastQueueWarn, DiskFastAwaitWarnMS, DiskFastAwaitCritMS judge an
	// SSD, NVMe or virtual disk, where %util means little because it serves
	// requests in parallel (HOST-04 trap: 100 % only means "never idle"):
	// saturated when requests queue (GREGG: avgqu-sz > 1 is saturation; 2 for
	// a device that overlaps them, design) and each waits more than 20 ms
	// (an SSD serves a read in well under 1 ms; 20 ms is queueing, design),
	// critical from 100 ms. Trap: spinning-disk limits applied to every device
	// (the routine-work review): a virtio disk at 70 % util with 2 ms await is not saturated.
	DiskFastQueueWarn   float64
	DiskFastAwaitWarnMS float64
	DiskFastAwaitCritMS float64
}

func (c *DiskSaturationConfig) defaults() {
	*c = DiskSaturationConfig{
		DiskUtilWarn:        60,
		DiskAwaitWarnMS:     35,
		DiskMinIOPS:         5,
		DiskFastQueueWarn:   2,
		DiskFastAwaitWarnMS: 20,
		DiskFastAwaitCritMS: 100,
	}
}

// diskSaturationRule is disk_saturation in the rules table (rule.go).
// HOST-04: GREGG, no duration; a checkpoint's flush burst or an fsync storm
// makes a healthy disk busy for seconds.
var diskSaturationRule = rule{id: IDDiskSaturation, check: checkDiskSaturation, persist: persistFor(10*time.Second, 5*time.Second), held: true}

// A device that holds the server's files and cannot keep up makes every
// read the buffer pool misses, and every flush, slow (HOST-04). Which limits
// apply depends on the device: a spinning disk serves one request at a time,
// so more than DiskUtilWarn % busy or DiskAwaitWarnMS per I/O (the InnoDB tuning guide,
// HOST-04 in docs/sources.md) saturates it, both over the line is critical. An SSD, NVMe or
// virtual disk (virtio, Xen: its rotational flag says nothing about the
// storage behind it) serves many requests at once, so %util means little
// (HOST-04 trap): it is saturated when requests queue (aqu-sz over
// DiskFastQueueWarn) and each waits long (await over DiskFastAwaitWarnMS);
// critical from DiskFastAwaitCritMS. When the host's mount table is known,
// only devices that hold the datadir, tmpdir, binlog or redo are judged, and
// the evidence says which holds which.
func checkDiskSaturation(w *window, c *Config) verdict {
	if r := w.hostNA(); r != "" {
		return notApplicable(r)
	}
	hr := w.hostRates()
	if hr == nil {
		return quiet()
	}
	holds := serverDevices(w)
	var hot []*snapshot.DiskRate
	sev := snapshot.Warning
	for i := range hr.Disks {
		d := &hr.Disks[i]
		if isVirtualDisk(d.Name) || d.ReadsPerSec+d.WritesPerSec < c.DiskMinIOPS {
			continue
		}
		if holds != nil && len(holds[d.Name]) == 0 {
			continue // holds nothing of the server's
		}
		var over, both bool
		if diskKind(w, d.Name) == diskSpinning {
			busy, slow := d.UtilPercent > c.DiskUtilWarn, d.AwaitMS > c.DiskAwaitWarnMS
			over, both = busy || slow, busy && slow
		} else {
			queued, slow := d.QueueDepth > c.DiskFastQueueWarn, d.AwaitMS > c.DiskFastAwaitWarnMS
			over, both = queued && slow, queued && d.AwaitMS > c.DiskFastAwaitCritMS
		}
		if over {
			hot = append(hot, d)
		}
		if both {
			sev = snapshot.Critical
		}
	}
	if len(hot) == 0 {
		return quiet()
	}
	var ev []string
	for _, d := range hot {
		line := diskLine(d) + " (" + diskKindLabel(w, d.Name) + ")"
		if h := holds[d.Name]; len(h) > 0 {
			line += "; holds " + strings.Join(h, ", ")
		}
		ev = append(ev, line)
	}
	ev = append(ev, fmt.Sprintf("thresholds: spinning util > %.0f %% or await > %.0f ms; SSD/NVMe/virtual "+
		"queue > %.0f and await > %.0f ms", c.DiskUtilWarn, c.DiskAwaitWarnMS, c.DiskFastQueueWarn, c.DiskFastAwaitWarnMS))
	ev = appendNonEmpty(ev, w.hostFigures(), w.stallFigure("I/O", ioStall))
	ev = append(ev, w.counterLines("Innodb_data_reads", "Innodb_data_writes", "Innodb_buffer_pool_reads")...)
	top := w.topConnectionsByIO()
	ev = append(ev, top.lines...)
	return raise(sev, fmt.Sprintf("disk %s saturated: util %.0f %%, await %.1f ms, queue %.1f", hot[0].Name,
		hot[0].UtilPercent, hot[0].AwaitMS, hot[0].QueueDepth), ev,
		"Find what drives the I/O: buffer pool misses and scans (buffer_pool_miss, full_scan_update) for "+
			"reads, checkpoint/flushing for writes; then fix the statements or give the data faster storage.", top.ids)
}

// Device kinds for disk_saturation.
const (
	diskSpinning = "spinning"
	diskFast     = "SSD/NVMe"
	diskVirtual  = "virtual"
)

// diskKind classes a device by its name and rotational flag. A virtio or
// Xen disk reports rotational 1 unless the hypervisor says otherwise, so its
// flag is not read as spinning. Unknown (a capture without the flag) keeps the
// spinning limits, the design brief's (the InnoDB tuning guide).
func diskKind(w *window, name string) string {
	for _, p := range []string{"vd", "xvd"} {
		if strings.HasPrefix(name, p) {
			return diskVirtual
		}
	}
	if strings.HasPrefix(name, "nvme") {
		return diskFast
	}
	if h := w.snap.Host; h != nil {
		for _, d := range h.Disks {
			if d.Name == name && d.Rotational == "0" {
				return diskFast
			}
		}
	}
	return diskSpinning
}

func diskKindLabel(w *window, name string) string {
	switch k := diskKind(w, name); k {
	case diskVirtual:
		return "virtual disk: %util means little"
	case diskFast:
		return "SSD/NVMe: %util means little"
	default:
		for _, d := range w.snap.Host.Disks {
			if d.Name == name && d.Rotational == "1" {
				return "spinning disk"
			}
		}
		return "rotational unknown: spinning-disk limits"
	}
}

// serverDevices maps each device to what of the server it holds ("datadir",
// "redo", "binlog", "tmpdir"), from the server's paths and the host's mount
// table; nil when the mount table or the datadir is unknown (then every
// device is judged).
func serverDevices(w *window) map[string][]string {
	h := w.snap.Host
	if h == nil || len(h.Mounts) == 0 {
		return nil
	}
	datadir, ok := w.snap.Variables["datadir"]
	if !ok || datadir == "" {
		return nil
	}
	abs := func(p string) string {
		if p == "" {
			return ""
		}
		if !path.IsAbs(p) {
			p = path.Join(datadir, p)
		}
		return path.Clean(p)
	}
	paths := []struct{ what, p string }{{"datadir", abs(datadir)}}
	redo := w.snap.Variables["innodb_log_group_home_dir"]
	if redo == "" {
		redo = datadir
	}
	paths = append(paths, struct{ what, p string }{"redo", abs(redo)})
	if v := w.snap.Variables["log_bin"]; v == "ON" || v == "1" {
		if b := w.snap.Variables["log_bin_basename"]; b != "" {
			paths = append(paths, struct{ what, p string }{"binlog", path.Dir(abs(b))})
		}
	}
	for _, t := range strings.Split(w.snap.Variables["tmpdir"], ":") {
		if t != "" {
			paths = append(paths, struct{ what, p string }{"tmpdir", abs(t)})
		}
	}
	out := map[string][]string{}
	for _, x := range paths {
		dev := deviceOf(h.Mounts, x.p)
		if dev != "" && !slices.Contains(out[dev], x.what) {
			out[dev] = append(out[dev], x.what)
		}
	}
	return out
}

// deviceOf is the device of the longest mount point containing p, or "".
func deviceOf(mounts []snapshot.Mount, p string) string {
	best, dev := -1, ""
	for _, m := range mounts {
		pt := path.Clean(m.Point)
		if (p == pt || pt == "/" || strings.HasPrefix(p, pt+"/")) && len(pt) > best {
			best, dev = len(pt), m.Device
		}
	}
	return dev
}

// isVirtualDisk skips devices whose figures double-count real ones.
func isVirtualDisk(name string) bool {
	for _, p := range []string{"loop", "ram", "zram", "sr"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
