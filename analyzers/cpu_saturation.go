package analyzers

import (
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// IDCPUSaturation names the findings of cpu_saturation: a contract (the
// README's findings table), stable, never reused.
const IDCPUSaturation = "cpu_saturation"

// CPUConfig holds cpu_saturation's thresholds, each with its source and the trap
// it avoids.
type CPUConfig struct {
	// CPUIdleLow: idle % below which a run queue longer than the CPU count is
	// saturation (HOST-01 GREGG r > CPUs; HOST-02 PMM-A busy > 80 %).
	// Trap: the load average (it counts D-state waits); the run queue and
	// idle time are read instead.
	CPUIdleLow float64

	// MysqldCPUShareMin: % of the host's busy CPU time mysqld must use to be
	// "the process using the CPU" (/proc/<pid>/stat). Below it cpu_saturation
	// says other processes use the CPU and does not blame the statements
	// (UNKNOWN; half). Trap: a busy neighbour (a build, a backup compressor) on
	// the database host.
	MysqldCPUShareMin float64
}

func (c *CPUConfig) defaults() {
	*c = CPUConfig{
		CPUIdleLow:        20,
		MysqldCPUShareMin: 50,
	}
}

// cpuSaturationRule is cpu_saturation in the rules table (rule.go).
// HOST-01/02: PMM-A busy > 80 % for 5 m; GREGG reads r over several seconds.
// Trap: a few seconds of a cron job or a build.
var cpuSaturationRule = rule{id: IDCPUSaturation, check: checkCPUSaturation, persist: persistFor(10*time.Second, 5*time.Second), held: true}

// More runnable threads than CPUs with little idle time: work waits for a CPU
// (HOST-01 GREGG r > CPUs, HOST-02 PMM-A busy > 80 %). A long run queue with
// idle CPUs is not this rule: that is serialisation (query_cache_contention).
// A warning when mysqld uses the CPU (or its share is not known: a remote
// server, a capture); info when other processes on the host do.
func checkCPUSaturation(w *window, c *Config) verdict {
	if r := w.hostNA(); r != "" {
		return notApplicable(r)
	}
	if r := cpuCountNA(w); r != "" {
		return notApplicable(r)
	}
	hr, h := w.hostRates(), w.snap.Host
	if hr == nil || h == nil {
		return quiet()
	}
	if h.ProcsRunning <= int64(h.NumCPU) || hr.CPU.Idle >= c.CPUIdleLow {
		return quiet()
	}
	mysqldLine, mysqldBusy, known := mysqldCPULine(w)
	if known && !mysqldBusy {
		// The host is saturated but mysqld is not what saturates it: a
		// build, a compressor, another service on a shared machine. The
		// finding is about the host, not the database, so it stays at info:
		// a warning on the database's dashboard would send a DBA to its
		// statements, and the statements are the victims here (HOST-02 is a
		// node alert in PMM-A, node_high_cpu_load, not a database one). The
		// database's own suffering, if any, is named by its own rules
		// (threads_running_high, runaway_query...). Trap: a shared CI or
		// consolidation host, where other services keep the CPUs busy while
		// a healthy mysqld uses a few percent of them.
		ev := appendNonEmpty([]string{mysqldLine}, w.hostFigures(), w.stallFigure("a CPU", cpuStall))
		title := fmt.Sprintf("CPU saturated by other processes, not mysqld: run queue %d on %d CPUs, %.0f %% idle",
			h.ProcsRunning, h.NumCPU, hr.CPU.Idle)
		if len(h.Busiest) > 0 {
			// Read by the host collector only while the CPUs are busy.
			ev = append(ev, "busiest other processes: "+busiestLine(h.Busiest))
			title += fmt.Sprintf("; busiest: %s (%.1f CPUs)", h.Busiest[0].Name, h.Busiest[0].CPUs)
		}
		if r, ok := w.snap.StatusInt("Threads_running"); ok {
			ev = append(ev, fmt.Sprintf("the database's own Threads_running %d on %d CPUs", r, h.NumCPU))
		}
		return raise(snapshot.Info, title, ev,
			"Find the processes using the CPU on this machine (top, pidstat) and move or limit them; the "+
				"database's statements are not what keeps the CPU busy, they wait for it like everyone else.", nil)
	}
	ev := appendNonEmpty(nil, mysqldLine, w.hostFigures(), w.stallFigure("a CPU", cpuStall))
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

// cpuCountNA says why a rule judging against the host's CPUs cannot run:
// the source has the host's figures but not how many CPUs it has (a
// capture's vmstat prints none, and nothing beside it said).
func cpuCountNA(w *window) string {
	if h := w.snap.Host; h != nil && !h.Remote && h.NumCPU <= 0 {
		return "CPU count unknown: the host figures do not say how many CPUs there are"
	}
	return ""
}

// busiestLine is "postgres (pid 812) 0.9 CPUs, redis-server (pid 77) 0.3 CPUs".
func busiestLine(ps []snapshot.ProcessUse) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = fmt.Sprintf("%s (pid %d) %.1f CPUs", p.Name, p.PID, p.CPUs)
	}
	return strings.Join(parts, ", ")
}
