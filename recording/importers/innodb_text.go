package importers

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Saved SHOW ENGINE INNODB STATUS output: one or many outputs, concatenated in
// one file or spread over several, bare or as the mysql client printed them.
// Each output is placed at its own "... INNODB MONITOR OUTPUT" timestamp.

const (
	monitorHeader = "INNODB MONITOR OUTPUT"
	monitorEnd    = "END OF INNODB MONITOR OUTPUT"
)

func importInnoDBText(path string, opts Options) ([]Session, error) {
	files, err := regularFiles(path)
	if err != nil {
		return nil, err
	}
	in, err := newInput(files, opts.Progress)
	if err != nil {
		return nil, err
	}
	sess := Session{Name: path}
	tl := newTimeline(opts.Location)
	var prev time.Time
	for _, f := range files {
		if sniffFile(f) != FormatInnoDBText {
			continue
		}
		err := splitMonitorOutputs(in, f, func(line int, text string) {
			st, err := snapshot.ParseInnoDBStatus(text)
			if err != nil {
				sess.Problems.add(f, line, err.Error())
				return
			}
			at, exact := monitorTime(st, prev, f, opts)
			if !exact {
				sess.Approximate, tl.approximate = true, true
			}
			tl.innodb[at.Unix()] = st
			prev = at
		})
		if err != nil {
			return nil, err
		}
	}
	sess.Snapshots, sess.Missing = tl.build()
	if len(sess.Snapshots) == 0 {
		return nil, fmt.Errorf("%s: no InnoDB monitor output found", path)
	}
	return []Session{sess}, nil
}

// monitorTime is when an output was taken: its own timestamp, read in the
// capture's zone, or else a second after the previous output (the first one at
// Start or the file's mtime); exact says which.
func monitorTime(st *snapshot.InnoDBStatus, prev time.Time, path string, opts Options) (time.Time, bool) {
	if !st.Time.IsZero() {
		return inZone(st.Time, opts.Location), true
	}
	if !prev.IsZero() {
		return prev.Add(time.Second), false
	}
	if !opts.Start.IsZero() {
		return opts.Start, false
	}
	if fi, err := os.Stat(path); err == nil {
		return fi.ModTime(), false
	}
	return time.Unix(0, 0), false
}

// splitMonitorOutputs calls emit with each monitor output of a file and the
// line it starts on. A new output starts at the "=====" rule above its header
// line; whatever follows an END OF ... line (the client's row header, "1 row
// in set") belongs to the next.
func splitMonitorOutputs(in *input, path string, emit func(line int, text string)) error {
	var chunk []string
	start, header := 1, false
	flush := func(next int) {
		if header {
			emit(start, strings.Join(chunk, "\n"))
		}
		chunk, start, header = nil, next, false
	}
	err := in.eachLine(path, func(n int, line string) {
		isHeader := strings.Contains(line, monitorHeader) && !strings.Contains(line, monitorEnd)
		if isHeader && header {
			carry := []string{}
			if k := len(chunk) - 1; k >= 0 && strings.HasPrefix(chunk[k], "=====") {
				carry, chunk = []string{chunk[k]}, chunk[:k]
			}
			flush(n - len(carry))
			chunk = carry
		}
		chunk = append(chunk, line)
		header = header || isHeader
		if strings.Contains(line, monitorEnd) {
			flush(n + 1)
		}
	})
	flush(0)
	return err
}
