package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
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
		if host.NotLocal != "" {
			return []string{"[gray]not local: " + safeLine(host.NotLocal, 300) + "; host figures are for " +
				safeLine(name, 60) + ", not shown[-]"}
		}
		return []string{"[gray]server is remote: host figures are for " + safeLine(name, 60) + ", not shown[-]"}
	}
	lines := []string{withSpark(cpuItem(f), h.cpu, width)}
	lines = append(lines, mysqldLines(f, width)...)
	lines = append(lines,
		fmt.Sprintf("load %s  r %d b %d  cs %s", host.LoadAverages(),
			host.ProcsRunning, host.ProcsBlocked, hostRate(f, func(r *snapshot.HostRates) float64 { return r.ContextSwitches })),
		fmt.Sprintf("swap in %s out %s  mem %s", hostRate(f, func(r *snapshot.HostRates) float64 { return r.SwapIn }),
			hostRate(f, func(r *snapshot.HostRates) float64 { return r.SwapOut }), memUsed(host)+mysqldRSS(host)))
	if l := stallLine(f); l != "" {
		lines = append(lines, l)
	}
	for _, d := range busiestDisks(f, max(0, maxLines-len(lines))) {
		lines = append(lines, fmt.Sprintf("%s util %s await %.0f ms r %s w %s", safeLine(d.Name, 16),
			pct(d.UtilPercent), d.AwaitMS, short(d.ReadsPerSec), short(d.WritesPerSec)))
	}
	if l := netLine(f); l != "" && len(lines) < maxLines {
		lines = append(lines, l)
	}
	return lines
}

// stallLine is the share of the last interval tasks waited for a CPU, for
// I/O and for memory (the kernel's pressure stalls, "some"), with the share
// all of them waited where any did: "stall cpu 42% io 8% (all 1.2%) mem 0%";
// "" when the source has none.
func stallLine(f *snapshot.Frame) string {
	if f.Rates == nil || f.Rates.Pressure == nil {
		return ""
	}
	item := func(name string, r snapshot.StallRate) string {
		s := name + " " + pct(r.Some)
		if r.Full >= 0.1 {
			s += " (all " + pct(r.Full) + ")"
		}
		return s
	}
	p := f.Rates.Pressure
	return "stall " + item("cpu", p.CPU) + " " + item("io", p.IO) + " " + item("mem", p.Memory)
}

// mysqldRSS is " mysqld 1.2G" when mysqld's resident size is known.
func mysqldRSS(h *snapshot.Host) string {
	if h.Mysqld == nil || h.Mysqld.RSSBytes == 0 {
		return ""
	}
	return " mysqld " + bytesShort(float64(h.Mysqld.RSSBytes))
}

// netLine is the interfaces' traffic (loopback aside), their drops and
// errors, the host's TCP retransmits, and what mysqld's answers wait in
// its client connections: "net rx 1.2M/s tx 3.4M/s retrans 5/s (0.3%)
// unacked 800K on 14/1065 conns"; "" when the source has none.
func netLine(f *snapshot.Frame) string {
	if f.Rates == nil || f.Rates.Host == nil {
		return ""
	}
	r := f.Rates.Host
	var rx, tx, bad float64
	for _, n := range r.Nets {
		if n.Name != "lo" {
			rx, tx, bad = rx+n.RxBytes, tx+n.TxBytes, bad+n.RxDrops+n.TxDrops+n.RxErrors+n.TxErrors
		}
	}
	var parts []string
	if len(r.Nets) > 0 {
		parts = append(parts, fmt.Sprintf("net rx %s/s tx %s/s", bytesShort(rx), bytesShort(tx)))
	}
	if bad > 0 {
		parts = append(parts, "drops+errs "+short(bad)+"/s")
	}
	if r.TCP != nil {
		parts = append(parts, fmt.Sprintf("retrans %s/s (%.1f%%)", short(r.TCP.RetransSegs), r.TCP.RetransPercent))
	}
	if h := f.Snapshot.Host; h != nil && h.Mysqld != nil && h.Mysqld.Clients != nil && h.Mysqld.Clients.Sending > 0 {
		q := h.Mysqld.Clients
		parts = append(parts, fmt.Sprintf("unacked %s on %d/%d conns", bytesShort(float64(q.SendBytes)), q.Sending, q.Connections))
	}
	return strings.Join(parts, "  ")
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
