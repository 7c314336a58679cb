package analyzers

import (
	"fmt"

	"github.com/mytop-go/mytop-go/snapshot"
)

// More runnable threads than CPUs with little idle time: work waits for a CPU
// (HOST-01 GREGG r > CPUs, HOST-02 PMM-A busy > 80 %). A long run queue with
// idle CPUs is not this rule: that is serialisation (query_cache_contention).
func checkCPUSaturation(w *window, c *Config) verdict {
	if r := w.hostNA(); r != "" {
		return notApplicable(r)
	}
	hr, h := w.hostRates(), w.snap.Host
	if hr == nil || h == nil || h.NumCPU <= 0 {
		return quiet()
	}
	if h.ProcsRunning <= int64(h.NumCPU) || hr.CPU.Idle >= c.CPUIdleLow {
		return quiet()
	}
	mysqldLine, mysqldBusy, known := mysqldCPULine(w)
	if known && !mysqldBusy {
		return raise(snapshot.Warning, fmt.Sprintf("CPU saturated by other processes, not mysqld: run queue %d on "+
			"%d CPUs, %.0f %% idle", h.ProcsRunning, h.NumCPU, hr.CPU.Idle),
			appendNonEmpty([]string{mysqldLine}, w.hostFigures()),
			"Find the processes using the CPU on this machine (top, pidstat) and move or limit them; the "+
				"database's statements are not what keeps the CPU busy.", nil)
	}
	ev := appendNonEmpty(nil, mysqldLine, w.hostFigures())
	ev = append(ev, fmt.Sprintf("load %s, %s context switches/s", h.LoadAverages(),
		fmtRate(hr.ContextSwitches)))
	if r, ok := w.snap.StatusInt("Threads_running"); ok {
		ev = append(ev, fmt.Sprintf("Threads_running %d", r))
	}
	top := w.topConnectionsByCPU()
	ev = append(ev, top.lines...)
	ev = append(ev, w.longRunningLines()...)
	return raise(snapshot.Warning, fmt.Sprintf("CPU saturated: run queue %d on %d CPUs, %.0f %% idle",
		h.ProcsRunning, h.NumCPU, hr.CPU.Idle), ev,
		"Find the statements burning CPU (long-running ones above, scans in Handler_read_rnd_next) and "+
			"index them; high sys time with many context switches points at lock spinning, not real work.", top.ids)
}
