// Package importers turns captures made by other tools (timestamped shell loops,
// pt-stalk, mysqladmin extended-status, saved InnoDB status text) into the
// Snapshots live collection produces, so replay, report and analyzers apply.
package importers

import (
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Format is a kind of foreign capture.
type Format string

// Formats Detect recognises.
const (
	FormatShellLoops Format = "shell-loops"
	FormatPtStalk    Format = "pt-stalk"
	FormatMysqladmin Format = "mysqladmin"
	FormatInnoDBText Format = "innodb-status"
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
	format, err := Detect(path)
	if err != nil {
		return nil, err
	}
	if opts.Location == nil {
		opts.Location = time.Local
	}
	var sessions []Session
	switch format {
	case FormatShellLoops:
		sessions, err = importShellLoops(path, opts)
	case FormatMysqladmin:
		sessions, err = importMysqladmin(path, opts)
	case FormatPtStalk:
		sessions, err = importPtStalk(path, opts)
	default:
		sessions, err = importInnoDBText(path, opts)
	}
	if err != nil {
		return nil, err
	}
	return &Capture{Format: format, Path: path, Sessions: sessions}, nil
}
