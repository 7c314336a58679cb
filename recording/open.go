package recording

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/recording/importers"
	"github.com/mytop-go/mytop-go/snapshot"
)

// Source is a SOURCE argument opened: a recording, or a capture made by
// another tool, imported in memory. Report, import, replay and snapshot all
// read through it.
type Source struct {
	Name    string
	reader  *Reader // set for a recording
	session *importers.Session
	Mode    snapshot.Mode
	stderr  io.Writer
}

// SourceOptions are what a command taking a SOURCE may say about it.
type SourceOptions struct {
	// Session picks one collection of a multi-session capture by name.
	Session string
	// Start is the time of the first sample, for captures without a clock
	// (mysqladmin), as ParseTime reads it.
	Start string
}

// OpenSource detects what path is from its content. What an import lacks or
// could not read, and a damaged frame skipped, are said on stderr.
func OpenSource(path string, sf SourceOptions, stderr io.Writer) (*Source, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("%s: %v", path, unwrapPathError(err))
	}
	r, err := Open(path)
	if err == nil {
		return &Source{Name: path, reader: r, Mode: snapshot.ModeReplay, stderr: stderr}, nil
	}
	if !errors.Is(err, ErrNotRecording) {
		return nil, err
	}
	return importSource(path, sf, stderr)
}

func importSource(path string, sf SourceOptions, stderr io.Writer) (*Source, error) {
	opts := importers.Options{Progress: importers.ProgressBar(stderr, "reading "+path)}
	if sf.Start != "" {
		t, err := ParseTime(sf.Start, time.Time{})
		if err != nil {
			return nil, fmt.Errorf("--start: %v", err)
		}
		opts.Start = t
	}
	c, err := importers.Import(path, opts)
	if err != nil {
		return nil, err
	}
	sess, err := pickSession(c, sf.Session)
	if err != nil {
		return nil, err
	}
	reportImport(stderr, c, sess)
	return &Source{Name: path, session: sess, Mode: snapshot.ModeImport, stderr: stderr}, nil
}

func pickSession(c *importers.Capture, name string) (*importers.Session, error) {
	if len(c.Sessions) == 0 {
		return nil, fmt.Errorf("%s: no samples found in this %s capture", c.Path, c.Format)
	}
	if name == "" {
		return richestSession(c), nil
	}
	var names []string
	for i := range c.Sessions {
		if c.Sessions[i].Name == name {
			return &c.Sessions[i], nil
		}
		names = append(names, c.Sessions[i].Name)
	}
	return nil, fmt.Errorf("%s: no session %q (have: %s)", c.Path, name, strings.Join(names, ", "))
}

// richestSession is the session with the most samples, the latest of equals:
// a pt-stalk directory often holds one long collection and short ones.
func richestSession(c *importers.Capture) *importers.Session {
	best := &c.Sessions[0]
	for i := range c.Sessions {
		if len(c.Sessions[i].Snapshots) >= len(best.Snapshots) {
			best = &c.Sessions[i]
		}
	}
	return best
}

func sessionNames(c *importers.Capture) string {
	var names []string
	for _, s := range c.Sessions {
		names = append(names, fmt.Sprintf("%q (%d samples)", s.Name, len(s.Snapshots)))
	}
	return strings.Join(names, ", ")
}

// reportImport tells on stderr what the capture lacks and what could not be
// read, so nothing is silently dropped.
func reportImport(w io.Writer, c *importers.Capture, s *importers.Session) {
	fmt.Fprintf(w, "mytop-go: %s: %s capture, %d samples %s .. %s", c.Path, c.Format, len(s.Snapshots),
		s.Start().Format(time.DateTime), s.End().Format(time.DateTime))
	if s.Approximate {
		fmt.Fprint(w, " (times approximate)")
	}
	fmt.Fprintln(w)
	if len(c.Sessions) > 1 {
		fmt.Fprintf(w, "mytop-go: %d sessions in this capture; showing %q, the one with the most samples (pick another with --session: %s)\n",
			len(c.Sessions), s.Name, sessionNames(c))
	}
	for _, sk := range c.Skipped {
		fmt.Fprintf(w, "mytop-go: not read: %s\n", sk)
	}
	for _, m := range s.Missing {
		fmt.Fprintf(w, "mytop-go: missing: %s\n", m)
	}
	for _, n := range s.Notes {
		fmt.Fprintf(w, "mytop-go: note: %s\n", n)
	}
	if s.Problems.Count > 0 {
		fmt.Fprintf(w, "mytop-go: %d lines could not be read, e.g.:\n", s.Problems.Count)
		for _, p := range s.Problems.First {
			fmt.Fprintf(w, "  %s\n", p)
		}
	}
}

// Frames returns the source's snapshots from..to (zero: its start, its end)
// as a pipeline source.
func (s *Source) Frames(from, to time.Time) pipeline.Source {
	if s.reader != nil {
		fs := s.reader.Source(from, to)
		// A damaged frame is skipped, never fatal, but the user hears of it.
		fs.OnSkip = func(err error) { fmt.Fprintf(s.stderr, "mytop-go: skipped: %v\n", err) }
		return fs
	}
	snaps := s.session.Snapshots
	lo, hi := 0, len(snaps)
	for lo < hi && !from.IsZero() && snaps[lo].Time.Before(from) {
		lo++
	}
	for hi > lo && !to.IsZero() && snaps[hi-1].Time.After(to) {
		hi--
	}
	return pipeline.NewSliceSource(snaps[lo:hi])
}

// TimeRange is the first and last sample time.
func (s *Source) TimeRange() (time.Time, time.Time) {
	if s.reader != nil {
		return s.reader.TimeRange()
	}
	return s.session.Start(), s.session.End()
}

// Close closes a recording.
func (s *Source) Close() error {
	if s.reader != nil {
		return s.reader.Close()
	}
	return nil
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Record stores every frame of the source, with the findings b raises, in a
// new recording at path; on failure nothing is left behind.
func (s *Source) Record(path string, opts WriterOptions, b *pipeline.Builder) error {
	w, err := Create(path, opts)
	if err != nil {
		return err
	}
	err = pipeline.Run(context.Background(), s.Frames(time.Time{}, time.Time{}), b, w.Write)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// Replayable is the source as a recording a Player can seek in: a recording
// as it is, a capture imported into a temporary one first (with the findings
// b raises), so replay has one engine for both. cleanup removes the
// temporary file.
func (s *Source) Replayable(opts WriterOptions, b *pipeline.Builder) (r *Reader, cleanup func(), err error) {
	if s.reader != nil {
		return s.reader, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "mytop-go-replay")
	if err != nil {
		return nil, nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	tmp := dir + "/capture.mytop"
	if err := s.Record(tmp, opts, b); err != nil {
		cleanup()
		return nil, nil, err
	}
	if r, err = Open(tmp); err != nil {
		cleanup()
		return nil, nil, err
	}
	return r, cleanup, nil
}
