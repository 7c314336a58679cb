package importers

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Top iterations and ps listings a capture holds outside pt-stalk's
// collection: a raw `top -b` or `ps -eaF` beside shell loops or in a pile,
// or their lines stamped by a loop. They give what pt-stalk's -top and -ps
// give: the CPU of each process, mysqld's against the rest, so a CPU hog
// outside the server is named from a shell-loop capture too.

// processTables is what the capture's files gave, placed once the timeline
// holds the rest (placeProcessTables).
type processTables struct {
	top []datedTop
	// topFiles name the files the iterations came from, for the note.
	topFiles []string
	ps       []psProc
	psFiles  []string
}

// datedTop is one top iteration, with the time a loop stamped it; zero
// where only top's own clock (a time of day) dates it.
type datedTop struct {
	at time.Time
	s  topSample
}

func (pt *processTables) addTop(path string, samples []topSample, stamps []time.Time) {
	if len(samples) == 0 {
		return
	}
	for i, s := range samples {
		d := datedTop{s: s}
		if i < len(stamps) {
			d.at = stamps[i]
		}
		pt.top = append(pt.top, d)
	}
	pt.topFiles = appendOnce(pt.topFiles, filepath.Base(path))
}

func (pt *processTables) addPs(path string, procs []psProc) {
	if len(procs) == 0 {
		return
	}
	pt.ps = append(pt.ps, procs...)
	pt.psFiles = appendOnce(pt.psFiles, filepath.Base(path))
}

func appendOnce(names []string, name string) []string {
	if slices.Contains(names, name) {
		return names
	}
	return append(names, name)
}

// placeProcessTables puts the capture's top iterations on the hosts of
// their seconds, with the server's process told among the others (by ps,
// the variables' datadir, socket or port), or, with ps alone, the server's
// resident size at the capture's first second. It returns the notes.
func (tl *timeline) placeProcessTables() []string {
	pt := &tl.tables
	if len(pt.top) == 0 && len(pt.ps) == 0 {
		return nil
	}
	samples, at := pt.dated(tl)
	pid, why := serverPID(pt.ps, samples, tl.variables)
	var notes []string
	if why != "" {
		notes = append(notes, why)
	}
	first := tl.firstSecond()
	switch {
	case len(samples) > 0:
		notes = append(notes, tl.placeTop(pileNames(pt.topFiles), samples, at, pid))
	case pid != 0 && !first.IsZero():
		if rss := psRSS(pt.ps, pid); rss > 0 {
			tl.hostNear(first.Unix()).Mysqld = &snapshot.ProcessCPU{PID: pid, RSSBytes: rss}
			notes = append(notes, fmt.Sprintf("%s: mysqld (pid %d) holds %d MiB, at the capture's start; no top beside it, so no CPU per process",
				pileNames(pt.psFiles), pid, rss>>20))
		}
	}
	return notes
}

// dated orders the iterations in time: a loop's stamps as they are, top's
// own clock on the day of the capture's first second.
func (pt *processTables) dated(tl *timeline) ([]topSample, []time.Time) {
	var clocked []topSample
	for _, d := range pt.top {
		if d.at.IsZero() {
			clocked = append(clocked, d.s)
		}
	}
	var times []time.Time
	if first := tl.firstSecond(); len(clocked) > 0 && !first.IsZero() {
		times = topTimes(clocked, first)
	}
	all := make([]datedTop, 0, len(pt.top))
	for _, d := range pt.top {
		if d.at.IsZero() {
			if len(times) == 0 {
				continue // nothing dates a time of day
			}
			d.at, times = times[0], times[1:]
		}
		all = append(all, d)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].at.Before(all[j].at) })
	samples := make([]topSample, len(all))
	at := make([]time.Time, len(all))
	for i, d := range all {
		samples[i], at[i] = d.s, d.at
	}
	return samples, at
}
