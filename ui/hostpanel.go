package ui

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// hostLines is the Host panel: CPU, run queue, paging, memory and the busiest
// disks, or why they are not shown.
func hostLines(f *snapshot.Frame, h *history, width, maxLines int) []string {
	s := f.Snapshot
	host := s.Host
	switch {
	case host == nil:
		return []string{naLine(s, snapshot.CollectorHost, "no host figures in this source")}
	case host.Remote:
		name := host.Hostname
		if name == "" {
			name = "this machine"
		}
		return []string{"[gray]server is remote: host figures are for " + safeLine(name, 60) + ", not shown[-]"}
	}
	lines := []string{withSpark(cpuItem(f), h.cpu, width)}
	lines = append(lines, mysqldLines(f, width)...)
	lines = append(lines,
		fmt.Sprintf("load %s  r %d b %d  cs %s", host.LoadAverages(),
			host.ProcsRunning, host.ProcsBlocked, hostRate(f, func(r *snapshot.HostRates) float64 { return r.ContextSwitches })),
		fmt.Sprintf("swap in %s out %s  mem %s", hostRate(f, func(r *snapshot.HostRates) float64 { return r.SwapIn }),
			hostRate(f, func(r *snapshot.HostRates) float64 { return r.SwapOut }), memUsed(host)))
	for _, d := range busiestDisks(f, max(0, maxLines-len(lines))) {
		lines = append(lines, fmt.Sprintf("%s util %s await %.0f ms r %s w %s", safeLine(d.Name, 16),
			pct(d.UtilPercent), d.AwaitMS, short(d.ReadsPerSec), short(d.WritesPerSec)))
	}
	return lines
}

func hostRate(f *snapshot.Frame, pick func(*snapshot.HostRates) float64) string {
	if f.Rates == nil || f.Rates.Host == nil {
		return "n/a"
	}
	return short(pick(f.Rates.Host))
}

func memUsed(h *snapshot.Host) string {
	if h.MemTotal == 0 {
		return "n/a"
	}
	return pct(float64(h.MemTotal-min(h.MemAvailable, h.MemTotal)) / float64(h.MemTotal) * 100)
}

// busiestDisks returns up to n devices by utilisation.
func busiestDisks(f *snapshot.Frame, n int) []snapshot.DiskRate {
	if f.Rates == nil || f.Rates.Host == nil || n <= 0 {
		return nil
	}
	disks := slices.Clone(f.Rates.Host.Disks)
	slices.SortFunc(disks, func(a, b snapshot.DiskRate) int { return cmp.Compare(b.UtilPercent, a.UtilPercent) })
	return disks[:min(n, len(disks))]
}

func secs(n int64) time.Duration { return time.Duration(n) * time.Second }
