package analyzers

import (
	"fmt"
	"time"
)

// mysqldCPUShare is the percentage of the host's busy CPU time (all but idle
// and iowait) that the mysqld process used this interval, from its
// /proc/<pid>/stat times; known is false when the source has no such figure
// (a remote server, a capture, an unreadable pid file).
func mysqldCPUShare(w *window) (share float64, known bool) {
	prev := w.prev()
	cur := w.snap.Host
	if prev == nil || cur == nil || cur.Mysqld == nil || prev.Snapshot.Host == nil {
		return 0, false
	}
	p := prev.Snapshot.Host
	if p.Mysqld == nil || p.Mysqld.PID != cur.Mysqld.PID {
		return 0, false
	}
	busy := func(c float64, idle, iowait float64) float64 { return c - idle - iowait }
	dBusy := busy(cur.CPU.Total(), cur.CPU.Idle, cur.CPU.IOWait) - busy(p.CPU.Total(), p.CPU.Idle, p.CPU.IOWait)
	dMysqld := cur.Mysqld.Seconds() - p.Mysqld.Seconds()
	if dBusy <= 0 || dMysqld < 0 {
		return 0, false
	}
	return min(100*dMysqld/dBusy, 100), true
}

// mysqldCPULine says plainly which process uses the CPU, for cpu_saturation's
// evidence; mysqldCPUBusy is whether mysqld is the main user.
func mysqldCPULine(w *window) (line string, mysqldBusy, known bool) {
	share, known := mysqldCPUShare(w)
	if !known {
		return "", false, false
	}
	secs := w.snap.Time.Sub(w.prev().Snapshot.Time).Seconds()
	used := ""
	if secs > 0 {
		d := w.snap.Host.Mysqld.Seconds() - w.prev().Snapshot.Host.Mysqld.Seconds()
		used = fmt.Sprintf(" (%.1f CPUs' worth over %s)", d/secs, fmtDuration(time.Duration(secs*float64(time.Second))))
	}
	if share >= w.cfg.MysqldCPUShareMin {
		return fmt.Sprintf("mysqld (pid %d) uses %.0f %% of the busy CPU time%s", w.snap.Host.Mysqld.PID, share, used),
			true, true
	}
	return fmt.Sprintf("mysqld (pid %d) uses only %.0f %% of the busy CPU time%s: other processes on this machine "+
		"are using the CPU", w.snap.Host.Mysqld.PID, share, used), false, true
}
