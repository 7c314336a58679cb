package importers

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// How many CPUs a capture's host has, where its host figures do not say
// (vmstat prints none): mpstat's header ("(2 CPU)"), a copy of
// /proc/cpuinfo, the output of nproc, or, failing those, MariaDB's
// thread_pool_size, whose default is the CPU count. Rules that judge
// against the CPUs (cpu_saturation, threads_running_high) are otherwise
// not applicable rather than silent or judged against a guess.

// kindCPUCount is /proc/cpuinfo or nproc's output: no samples, a CPU count
// beside them.
const kindCPUCount fileKind = "cpu-count"

func isCPUCount(_ []byte, lines []string) bool {
	if strings.HasPrefix(lines[0], "processor") && strings.Contains(lines[0], ":") {
		return true // /proc/cpuinfo
	}
	n, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	return len(lines) == 1 && err == nil && n > 0 && n <= 4096 // nproc
}

// readCPUCount counts /proc/cpuinfo's processors, or reads nproc's number.
func (p *pileReader) readCPUCount(pf *pileFile) error {
	n, nproc := 0, 0
	err := p.run.in.eachLine(pf.path, func(_ int, line string) {
		if name, _, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "processor" {
			n++
		} else if v, err := strconv.Atoi(strings.TrimSpace(line)); err == nil && v > 0 {
			nproc = v
		}
	})
	if n == 0 {
		n = nproc
	}
	if n > 0 {
		p.tl.setCPUs(n, filepath.Base(pf.path))
	}
	return err
}

// setCPUs keeps the first CPU count a capture gives and where from.
func (tl *timeline) setCPUs(n int, from string) {
	if tl.numCPU == 0 && n > 0 {
		tl.numCPU, tl.numCPUFrom = n, from
	}
}

// fillCPUs fills the CPU count of hosts that have none: from what the
// capture gave beside them, else MariaDB's thread_pool_size. It returns
// the note saying where the count came from or that it is unknown; "" when
// every host had its own.
func (tl *timeline) fillCPUs() string {
	need := false
	for _, h := range tl.hosts {
		need = need || h.NumCPU == 0
	}
	if !need {
		return ""
	}
	if tl.numCPU == 0 {
		if n := threadPoolCPUs(tl.variables); n > 0 {
			tl.numCPU, tl.numCPUFrom = n, "thread_pool_size (MariaDB sets it to the CPU count unless told otherwise)"
		}
	}
	if tl.numCPU == 0 {
		return "the CPU count is unknown (no mpstat, /proc/cpuinfo or nproc output beside the host figures): " +
			"rules that judge against the CPUs are not applicable"
	}
	for _, h := range tl.hosts {
		if h.NumCPU == 0 {
			h.NumCPU = tl.numCPU
		}
	}
	return fmt.Sprintf("%d CPUs, from %s", tl.numCPU, tl.numCPUFrom)
}

// threadPoolCPUs is MariaDB's thread_pool_size when the thread pool is not
// in use (so it was most likely left at its default, the CPU count).
func threadPoolCPUs(vars map[string]string) int {
	if !strings.Contains(vars["version"], "MariaDB") || vars["thread_handling"] == "pool-of-threads" {
		return 0
	}
	n, err := strconv.Atoi(vars["thread_pool_size"])
	if err != nil || n <= 0 {
		return 0
	}
	return n
}
