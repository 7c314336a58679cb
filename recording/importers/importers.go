// Package importers turns captures made by other tools (timestamped shell loops,
// pt-stalk, mysqladmin extended-status, saved InnoDB status text) into the
// Snapshots live collection produces, so replay, report and analyzers apply.
package importers

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Format is a kind of foreign capture.
type Format string

// Formats detect recognises and that more than one kind of file is named by
// (a pile of them); the others are declared beside their kind, in its file.
const (
	FormatStatusTable Format = "status-table" // SHOW GLOBAL STATUS saved by the mysql client, in any layout
	FormatDiskstats   Format = "diskstats"    // /proc/diskstats copies, TS-stamped (pt-diskstats) or bare
	FormatFiles       Format = "files"        // a pile of such files, put on one timeline
)

// Options tune an import. The zero value works.
type Options struct {
	// Start is the time of the first sample for captures that carry no clock
	// (mysqladmin output); zero means derive it from the file's mtime.
	Start time.Time
	// Interval is mysqladmin's -i when its output does not reveal it (no
	// Uptime); zero means one second.
	Interval time.Duration
	// Location is the zone of timestamps printed without one (shell-loop dates,
	// pt-stalk prefixes); nil means the local zone.
	Location *time.Location
	// Progress, when set, is called now and then with bytes read so far and the
	// total, so a command can draw a progress bar.
	Progress func(done, total int64)
}

// Capture is an imported capture: one or more sessions to pick from.
type Capture struct {
	Format   Format
	Path     string
	Sessions []Session
	// Skipped names, with why, every file of the capture no session reads.
	Skipped []string
}

// Session is one continuous collection within a capture.
type Session struct {
	// Name tells sessions apart, e.g. a pt-stalk prefix.
	Name      string
	Snapshots []*snapshot.Snapshot
	// Approximate is set when sample times were estimated (no clock in the
	// capture); it is also set on every Snapshot.
	Approximate bool
	// Missing says what the capture lacks ("no processlist", "no host
	// figures"...), so panels show it missing rather than zero.
	Missing []string
	// Notes are facts about the import a reader should know (a changed
	// variable list, samples that fell outside the timeline).
	Notes    []string
	Problems Problems
}

// Start and End are the first and last sample times; zero for an empty session.
func (s *Session) Start() time.Time { return s.at(0) }

// End is the last sample time.
func (s *Session) End() time.Time { return s.at(len(s.Snapshots) - 1) }

func (s *Session) at(i int) time.Time {
	if i < 0 || i >= len(s.Snapshots) {
		return time.Time{}
	}
	return s.Snapshots[i].Time
}

// Import reads the capture at path (a file or a directory), detecting its format
// from content.
func Import(path string, opts Options) (*Capture, error) {
	format, all, err := plan(path)
	if err != nil {
		return nil, err
	}
	if opts.Location == nil {
		opts.Location = time.Local
	}
	r := &run{path: path, opts: opts}
	var paths []string
	for _, f := range all {
		if readsKind(format, f.kind) {
			r.files = append(r.files, f)
			paths = append(paths, f.path)
		} else {
			r.skip(f.path, skipReason(f, format))
		}
	}
	if r.in, err = newInput(paths, opts.Progress); err != nil {
		return nil, err
	}
	read := readerOf(format)
	if read == nil {
		return nil, fmt.Errorf("%s: no reader for %s captures", path, format)
	}
	sessions, err := read(r)
	if err != nil {
		return nil, err
	}
	r.in.complete()
	return &Capture{Format: format, Path: path, Sessions: sessions, Skipped: r.skipped}, nil
}

// run is one import: the files its format reads, and what it left out.
type run struct {
	path    string
	in      *input
	files   []sniffed
	opts    Options
	skipped []string
}

func (r *run) skip(path, why string) {
	r.skipped = append(r.skipped, filepath.Base(path)+": "+why)
}

// paths are the files the reader takes.
func (r *run) paths() []string {
	out := make([]string, len(r.files))
	for i, f := range r.files {
		out[i] = f.path
	}
	return out
}

func skipReason(f sniffed, format Format) string {
	if f.kind == kindNone {
		return f.why
	}
	return fmt.Sprintf("%s beside a %s capture: read it on its own", f.kind, format)
}
