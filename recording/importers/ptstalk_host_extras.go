package importers

import (
	"path/filepath"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The host parts of a pt-stalk collection beyond /proc/stat, diskstats and
// vmstat: -meminfo and -netstat_s (TS-stamped, every second) give memory
// and the TCP counters; -top (its own clock, every few seconds) the CPU of
// each process, mysqld's against the rest, and the load averages; -ps
// (once, at the start) which process is the server and its resident size;
// -netstat its client connections' queues.
// They go into the hosts readHosts made, at their own seconds.

func (r *ptReader) readHostExtras(_ []time.Time, base time.Time) error {
	for _, part := range []struct {
		name  string
		apply func(*snapshot.Host, []string)
	}{{"meminfo", applyMeminfo}, {"netstat_s", applyNetstatS}} {
		path, ok := r.g.files[part.name]
		if !ok {
			continue
		}
		if err := r.eachTSBlock(path, func(t time.Time, lines []string) { part.apply(r.tl.hostNear(t.Unix()), lines) }); err != nil {
			return err
		}
	}
	if path, ok := r.g.files["mpstat"]; ok {
		pr := &pileReader{run: &run{in: r.in}, sess: r.sess, tl: r.tl}
		if err := pr.readMpstat(&pileFile{path: path}); err != nil {
			return err
		}
	}
	ps, err := r.partLines("ps")
	if err != nil {
		return err
	}
	topLines, err := r.partLines("top")
	if err != nil {
		return err
	}
	var tp topParser
	for _, l := range topLines {
		tp.line(l)
	}
	procs := parsePs(ps)
	pid, why := serverPID(procs, tp.samples, r.tl.variables)
	if why != "" {
		r.sess.Notes = append(r.sess.Notes, why)
	}
	if len(tp.samples) > 0 {
		name := filepath.Base(r.g.files["top"])
		r.sess.Notes = append(r.sess.Notes, r.tl.placeTop(name, tp.samples, topTimes(tp.samples, base), pid))
		if err := r.readClientQueues(pid); err != nil {
			return err
		}
	} else if rss := psRSS(procs, pid); rss > 0 {
		h := r.tl.hostNear(base.Unix())
		h.Mysqld = &snapshot.ProcessCPU{PID: pid, RSSBytes: rss}
	}
	return nil
}

// applyNetstatS reads one netstat -s copy into h.TCP.
func applyNetstatS(h *snapshot.Host, lines []string) {
	if t, ok := parseNetstatS(lines); ok {
		h.TCP = t
	}
}

// partLines reads a part whole; nil when the collection has none.
func (r *ptReader) partLines(part string) ([]string, error) {
	path, ok := r.g.files[part]
	if !ok {
		return nil, nil
	}
	var lines []string
	err := r.in.eachLine(path, func(_ int, line string) { lines = append(lines, line) })
	return lines, err
}

func psRSS(procs []psProc, pid int) uint64 {
	for _, p := range procs {
		if p.pid == pid {
			return p.rss
		}
	}
	return 0
}
