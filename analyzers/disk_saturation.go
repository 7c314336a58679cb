package analyzers

import (
	"fmt"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A device busy more than DiskUtilWarn % of the time or taking more than
// DiskAwaitWarnMS per I/O (incident 004 / DESIGN.md) makes every read the
// buffer pool misses slow (HOST-04). %util alone misleads on SSD/RAID, which
// serve requests in parallel, so both figures are shown; both over the line is
// critical.
func checkDiskSaturation(w *window, c *Config) verdict {
	if r := w.hostNA(); r != "" {
		return notApplicable(r)
	}
	hr := w.hostRates()
	if hr == nil {
		return quiet()
	}
	var hot []*snapshot.DiskRate
	sev := snapshot.Warning
	for i := range hr.Disks {
		d := &hr.Disks[i]
		if isVirtualDisk(d.Name) || d.ReadsPerSec+d.WritesPerSec < c.DiskMinIOPS {
			continue
		}
		busy, slow := d.UtilPercent > c.DiskUtilWarn, d.AwaitMS > c.DiskAwaitWarnMS
		if busy || slow {
			hot = append(hot, d)
		}
		if busy && slow {
			sev = snapshot.Critical
		}
	}
	if len(hot) == 0 {
		return quiet()
	}
	var ev []string
	for _, d := range hot {
		ev = append(ev, diskLine(d))
	}
	ev = append(ev, fmt.Sprintf("thresholds: util > %.0f %% or await > %.0f ms", c.DiskUtilWarn, c.DiskAwaitWarnMS))
	ev = appendNonEmpty(ev, w.hostFigures())
	ev = append(ev, w.counterLines("Innodb_data_reads", "Innodb_data_writes", "Innodb_buffer_pool_reads")...)
	top := w.topConnectionsByIO()
	ev = append(ev, top.lines...)
	return raise(sev, fmt.Sprintf("disk %s saturated: util %.0f %%, await %.1f ms", hot[0].Name,
		hot[0].UtilPercent, hot[0].AwaitMS), ev,
		"Find what drives the I/O: buffer pool misses and scans (buffer_pool_miss, full_scan_update) for "+
			"reads, checkpoint/flushing for writes; then fix the statements or give the data faster storage.", top.ids)
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
