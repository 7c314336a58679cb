package importers

import (
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Files beside shell-loop logs that are not loops themselves: iostat -x,
// TS-stamped or bare /proc/diskstats copies, vmstat, mpstat, the server's
// variables, /proc/cpuinfo or nproc. They are read as a pile would read
// them and put on the loops' timeline, so a capture of status and vmstat
// loops with iostat beside it carries the disks' utilisation; a file
// without a clock of its own is placed from the loops' first second, since
// the loops and the tools beside them are started together.

// besideShellLoops: the kinds read beside shell loops (besideLoops in kinds).
func besideShellLoops(k fileKind) bool {
	s, ok := specOf(k)
	return ok && s.besideLoops
}

func readBesideLoops(run *run, tl *timeline, sess *Session, beside []sniffed) error {
	if len(beside) == 0 {
		return nil
	}
	pr := &pileReader{run: run, sess: sess, tl: tl}
	var files []*pileFile
	for _, f := range beside {
		pf, err := pr.readFile(f)
		if err != nil {
			return err
		}
		if pf != nil && len(pf.samples) > 0 {
			files = append(files, pf)
		}
	}
	if len(files) == 0 {
		return nil
	}
	opts := run.opts
	if first := tl.firstSecond(); opts.Start.IsZero() && !first.IsZero() {
		opts.Start = first
	}
	approximate := tl.approximate
	sess.Notes = append(sess.Notes, placeBeside(files, tl, opts)...)
	tl.approximate = approximate || tl.approximate
	mergeSplitHosts(tl)
	return nil
}

// placeBeside places the files beside the loops: timed ones by their
// clocks, the others from the loops' start.
func placeBeside(files []*pileFile, tl *timeline, opts Options) []string {
	var timed, untimed []*pileFile
	for _, f := range files {
		if f.timed {
			timed = append(timed, f)
		} else {
			untimed = append(untimed, f)
		}
	}
	notes := placePile(timed, tl, opts)
	for _, f := range untimed {
		// Each untimed file starts with the loops, not after the file before it.
		notes = append(notes, placePile([]*pileFile{f}, tl, opts)...)
	}
	return notes
}

// firstSecond is the first second any part of the capture holds: the
// loops' first, beside shell loops.
func (tl *timeline) firstSecond() time.Time {
	var first int64
	for _, m := range []map[int64]bool{keySet(tl.status), keySet(tl.procs), keySet(tl.hosts)} {
		for k := range m {
			if first == 0 || k < first {
				first = k
			}
		}
	}
	if first == 0 {
		return time.Time{}
	}
	return time.Unix(first, 0).In(tl.loc)
}

func keySet[V any](m map[int64]V) map[int64]bool {
	out := make(map[int64]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// mergeSplitHosts gives a host with CPU figures and no disks the disks of
// a disks-only host one second from it (a tool beside the loops whose
// second fell on the other side of a boundary), so no second alternates
// between a host with CPU and one without.
func mergeSplitHosts(tl *timeline) {
	for sec, h := range tl.hosts {
		if len(h.Disks) == 0 || h.CPU.Total() > 0 {
			continue
		}
		for _, near := range []int64{sec - 1, sec + 1} {
			if n := tl.hosts[near]; n != nil && n.CPU.Total() > 0 && len(n.Disks) == 0 {
				joined := *n
				joined.Disks = h.Disks
				tl.hosts[near] = &joined
				delete(tl.hosts, sec)
				break
			}
		}
	}
}

// addDiskstats puts the timestamped /proc/diskstats rows into the hosts of
// their seconds (a new host where vmstat has none).
func (r *shellReader) addDiskstats() {
	for at, lines := range r.disks {
		h := r.tl.hosts[at]
		if h == nil {
			h = &snapshot.Host{}
			r.tl.hosts[at] = h
		}
		applyDiskstats(h, lines)
	}
	mergeSplitHosts(r.tl)
}
