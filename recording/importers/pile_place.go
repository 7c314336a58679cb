package importers

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Placing a pile's files in time. A file with a clock (InnoDB status, TS
// markers) keeps it. A file without one is placed, in file-name order:
//   - by the server's Uptime against the status sample placed before it
//     (two SHOW GLOBAL STATUS copies taken 10 s apart are 10 s apart);
//   - else just after the file before it, or just before the next timed one;
//   - else at --start, or where its mtime says it ended.
// The session says which file was placed how, and is Approximate when any was.

// maxUptimeGap is how far apart two status samples may be placed by Uptime;
// beyond it they are likely from different servers or days.
const maxUptimeGap = 24 * time.Hour

type placer struct {
	tl     *timeline
	opts   Options
	files  []*pileFile
	end    time.Time // last time placed so far
	endBy  string    // the file that placed it
	upAt   time.Time // the latest placed status sample with an Uptime
	up     int64
	upBy   string
	shifts int
	// repeats counts status samples that are another file's copy: same Uptime,
	// same Questions (pt-mysql-summary saves its first sample twice).
	repeats int
}

func (p *placer) isRepeat(s map[string]string) bool {
	u, ok := intStatus(s, "Uptime")
	if !ok || u != p.up {
		return false
	}
	prev := p.tl.status[p.upAt.Unix()]
	return prev != nil && prev["Questions"] == s["Questions"]
}

func placePile(files []*pileFile, tl *timeline, opts Options) []string {
	p := &placer{tl: tl, opts: opts, files: files, up: -1}
	var own, placed []string
	for i, f := range files {
		start := time.Time{}
		if !f.timed {
			start, f.how = p.startOf(i)
			tl.approximate = true
			placed = append(placed, filepath.Base(f.path)+" "+f.how)
		} else {
			own = append(own, filepath.Base(f.path))
		}
		for _, s := range f.samples {
			at := s.at
			if !f.timed {
				at = start.Add(s.off)
			}
			p.insert(at, s)
			if at.After(p.end) {
				p.end, p.endBy = at, filepath.Base(f.path)
			}
			if u, ok := intStatus(s.status, "Uptime"); ok {
				p.upAt, p.up, p.upBy = at, u, filepath.Base(f.path)
			}
		}
	}
	var notes []string
	if len(placed) > 0 {
		note := "times: files without a clock were placed by their order and their neighbours' times: " + pileNames(placed)
		if len(own) > 0 {
			note += "; by their own clocks: " + pileNames(own)
		}
		notes = append(notes, note)
	}
	if p.repeats > 0 {
		notes = append(notes, fmt.Sprintf("%d samples repeated one already read (status: same Uptime and Questions; InnoDB: same timestamp) and were read once", p.repeats))
	}
	if p.shifts > 0 {
		notes = append(notes, fmt.Sprintf("%d samples fell in a second another sample of the same kind held and were moved to the next free second", p.shifts))
	}
	return notes
}

// startOf places the untimed file i and says how.
func (p *placer) startOf(i int) (time.Time, string) {
	f := p.files[i]
	span := f.samples[len(f.samples)-1].off
	if u, ok := intStatus(f.samples[0].status, "Uptime"); ok && p.up >= 0 && u >= p.up &&
		time.Duration(u-p.up)*time.Second <= maxUptimeGap {
		return p.upAt.Add(time.Duration(u-p.up) * time.Second), "by Uptime after " + p.upBy
	}
	if !p.end.IsZero() {
		return p.end.Add(time.Second), "after " + p.endBy
	}
	for _, next := range p.files[i+1:] {
		if next.timed {
			return next.samples[0].at.Add(-span - time.Second), "before " + filepath.Base(next.path)
		}
	}
	if !p.opts.Start.IsZero() {
		return p.opts.Start, "at --start"
	}
	if st, err := os.Stat(f.path); err == nil {
		return st.ModTime().In(p.opts.Location).Add(-span), "by its mtime"
	}
	return time.Unix(0, 0).In(p.opts.Location), "at the epoch (no time anywhere)"
}

// insert files a sample under its second; a second already holding a sample
// of the same part moves it to the next free one.
func (p *placer) insert(at time.Time, s pileSample) {
	sec := at.Unix()
	switch {
	case s.status != nil && p.isRepeat(s.status):
		p.repeats++
	case s.status != nil:
		sec = p.free(sec, func(t int64) bool { _, ok := p.tl.status[t]; return ok })
		p.tl.status[sec] = s.status
	case s.hasProcs:
		sec = p.free(sec, func(t int64) bool { _, ok := p.tl.procs[t]; return ok })
		p.tl.procs[sec] = s.procs
	case s.innodb != nil && p.tl.innodb[sec] != nil && p.tl.innodb[sec].Time.Equal(s.innodb.Time):
		p.repeats++ // the same output saved twice
	case s.innodb != nil:
		sec = p.free(sec, func(t int64) bool { _, ok := p.tl.innodb[t]; return ok })
		p.tl.innodb[sec] = s.innodb
	case s.set != nil:
		sec = p.free(sec, func(t int64) bool { _, ok := p.tl.placed[s.part][t]; return ok })
		p.tl.place(s.part, sec, s.set)
	case s.addHost != nil:
		h := p.tl.hosts[sec]
		if h == nil {
			h = &snapshot.Host{}
			p.tl.hosts[sec] = h
		}
		s.addHost(h)
	case s.host != nil:
		if h := p.tl.hosts[sec]; h != nil && (len(h.Disks) == 0) != (len(s.host.Disks) == 0) {
			p.tl.hosts[sec] = joinHosts(h, s.host) // vmstat and iostat of the same second
			return
		}
		sec = p.free(sec, func(t int64) bool { _, ok := p.tl.hosts[t]; return ok })
		p.tl.hosts[sec] = s.host
	}
}

// joinHosts is the host with CPU figures, given the other's disks.
func joinHosts(a, b *snapshot.Host) *snapshot.Host {
	if len(a.Disks) > 0 {
		a, b = b, a
	}
	h := *a
	h.Disks = b.Disks
	return &h
}

func (p *placer) free(sec int64, taken func(int64) bool) int64 {
	for taken(sec) {
		sec++
		p.shifts++
	}
	return sec
}
