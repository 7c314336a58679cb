package importers

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A pile is files saved by hand, one directory or one file: SHOW GLOBAL
// STATUS tables, processlists, InnoDB status, vmstat, /proc/diskstats copies,
// in the layouts the mysql client and the tools print. Each file is read for
// its samples; samples that carry a clock keep it, the others are placed by
// the file's order and its neighbours' times (pile_place.go), and all of them
// go on one timeline.

// pileFile is what one file of a pile holds, before it is placed in time.
type pileFile struct {
	path    string
	kind    fileKind
	samples []pileSample
	timed   bool // the samples carry their own times
	// how says how the file's times were had, once placed.
	how string
}

// pileSample is one sample of one part.
type pileSample struct {
	at  time.Time     // its own time, in a timed file
	off time.Duration // from the file's first sample, in an untimed one

	status   map[string]string
	procs    []snapshot.Process
	hasProcs bool // an empty processlist is still a sample
	host     *snapshot.Host
	// addHost fills the host of the sample's second: TS-stamped /proc copies
	// of one moment (stat, vmstat, diskstats) make one Host.
	addHost func(*snapshot.Host)
	innodb  *snapshot.InnoDBStatus
	// set puts a sample of any other part into its frame (timeline.place).
	part snapshot.CollectorName
	set  func(*snapshot.Snapshot)
}

// pileFormat names a pile by what it holds: one kind gives that kind's
// format; several files named as a collection's parts (pt-mysql-summary's)
// the collection's pile format.
func pileFormat(all []sniffed) Format {
	held := map[fileKind]bool{}
	for _, f := range all {
		if s, ok := specOf(f.kind); ok && !s.beside { // variables go beside any samples
			held[f.kind] = true
		}
	}
	for _, s := range kinds {
		if s.named != nil && s.own == "" && s.pile != "" && len(all) > 1 && namesAny(s, all) {
			return s.pile
		}
	}
	if len(held) != 1 {
		return FormatFiles
	}
	for k := range held {
		if s, _ := specOf(k); s.pile != "" {
			return s.pile
		}
	}
	return FormatFiles
}

func importPile(r *run) ([]Session, error) {
	sess := Session{Name: filepath.Base(r.path)}
	tl := newTimeline(r.opts.Location)
	tl.keepAll = true
	pr := &pileReader{run: r, sess: &sess, tl: tl}
	var files []*pileFile
	for _, f := range r.files {
		pf, err := pr.readFile(f)
		if errors.Is(err, errLostNewlines) {
			r.skip(f.path, lostNewlinesWhy)
			continue
		}
		if err != nil {
			return nil, err
		}
		switch {
		case pf == nil: // variables: read, no samples of their own
		case len(pf.samples) == 0:
			r.skip(f.path, fmt.Sprintf("%s with no sample in it", f.kind))
		default:
			files = append(files, pf)
		}
	}
	if len(files) == 0 && len(r.files) == 1 && len(r.skipped) > 0 {
		_, why, _ := strings.Cut(r.skipped[len(r.skipped)-1], ": ")
		return nil, fmt.Errorf("%s: %s", r.path, why)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: %s", r.path, noSamplesWhy(tl))
	}
	sess.Notes = append(sess.Notes, placePile(files, tl, r.opts)...)
	sess.Notes = append(sess.Notes, tl.placeProcessTables()...)
	if note := tl.fillCPUs(); note != "" {
		sess.Notes = append(sess.Notes, note)
	}
	sess.Approximate = tl.approximate
	sess.Snapshots, sess.Missing = tl.build()
	server := serverInfo(tl.variables)
	for _, s := range sess.Snapshots {
		s.Server = server
	}
	return []Session{sess}, nil
}

func noSamplesWhy(tl *timeline) string {
	if tl.variables != nil {
		return "SHOW VARIABLES alone: no samples (status counters, processlist, InnoDB status, host figures) to put them beside"
	}
	return "no samples in these files"
}

// pileReader reads the files of a pile.
type pileReader struct {
	run  *run
	sess *Session
	tl   *timeline
}

// pileNames lists file names for a note, shortened past a few.
func pileNames(names []string) string {
	const shown = 6
	if len(names) <= shown {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:shown], ", ") + fmt.Sprintf(" and %d more", len(names)-shown)
}

// addStatus adds status samples a file holds, placed apart by the server's
// Uptime (a loop of `mysql -e 'SHOW GLOBAL STATUS'` prints no clock).
func (p *pileReader) addStatus(pf *pileFile, samples []map[string]string) {
	offsets := adminOffsets(samples, p.run.opts.Interval)
	for i, s := range samples {
		pf.samples = append(pf.samples, pileSample{off: offsets[i], status: s})
	}
	if isSessionScope(samples) {
		for _, s := range samples {
			dropSessionScoped(s)
		}
		p.sess.Notes = append(p.sess.Notes, sessionScopeNote)
	}
}
