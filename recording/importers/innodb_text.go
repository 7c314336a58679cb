package importers

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// Saved SHOW ENGINE INNODB STATUS output: one or many outputs, concatenated in
// one file or spread over several, bare or as the mysql client printed them.
// Each output is placed at its own "... INNODB MONITOR OUTPUT" timestamp.

// kindInnoDB is SHOW ENGINE INNODB STATUS output, or sections of it.
const kindInnoDB fileKind = "innodb-status"

// FormatInnoDBText is saved SHOW ENGINE INNODB STATUS output.
const FormatInnoDBText Format = "innodb-status"

const (
	monitorHeader = "INNODB MONITOR OUTPUT"
	monitorEnd    = "END OF INNODB MONITOR OUTPUT"
)

// isMonitorHeader tells the line that starts an output. `mysql -e` in batch
// mode prints the whole output on one line with its line breaks escaped as
// "\n": that line is its own header and end.
func isMonitorHeader(line string) bool {
	if !strings.Contains(line, monitorHeader) {
		return false
	}
	return !strings.Contains(line, monitorEnd) || strings.Contains(line, `\n`)
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
		isHeader := isMonitorHeader(line)
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

// innoDBSections are section titles that make a fragment of InnoDB status
// (pt-deadlock-logger keeps only LATEST DETECTED DEADLOCK) readable alone.
var innoDBSections = []string{"\nLATEST DETECTED DEADLOCK\n", "\nTRANSACTIONS\n", "\nBUFFER POOL AND MEMORY\n", "\nSEMAPHORES\n"}

func isInnoDBText(head []byte) bool {
	if bytes.Contains(head, []byte(monitorHeader)) {
		return true
	}
	text := strings.ReplaceAll(string(head), "\r\n", "\n")
	for _, s := range innoDBSections {
		if strings.Contains(text, s) {
			return true
		}
	}
	return false
}

// readInnoDB reads every monitor output of the file at its own timestamp; a
// fragment without the monitor header (pt-deadlock-logger keeps only the
// deadlock) is placed at its deadlock's time.
func (p *pileReader) readInnoDB(pf *pileFile) error {
	first := true
	var prev time.Time
	err := splitMonitorOutputs(p.run.in, pf.path, func(line int, text string) {
		st, err := parse.ParseInnoDBStatus(text)
		if err != nil {
			p.sess.Problems.add(pf.path, line, err.Error())
			return
		}
		at := st.Time
		if at.IsZero() {
			at = st.LatestDeadlockTime
		}
		switch {
		case first:
			pf.timed = !at.IsZero()
		case at.IsZero() || !pf.timed:
			at = prev.Add(time.Second)
		}
		if pf.timed {
			at = inZone(at, p.run.opts.Location)
		}
		first, prev = false, at
		pf.samples = append(pf.samples, pileSample{at: at, off: time.Duration(len(pf.samples)) * time.Second, innodb: st})
	})
	if err == nil && len(pf.samples) == 0 {
		err = p.readInnoDBFragment(pf)
	}
	return err
}

// readInnoDBFragment reads a file of InnoDB sections with no monitor header.
func (p *pileReader) readInnoDBFragment(pf *pileFile) error {
	raw, err := os.ReadFile(pf.path)
	if err != nil {
		return err
	}
	st, err := parse.ParseInnoDBStatus(string(raw))
	if err != nil {
		p.sess.Problems.add(pf.path, 1, err.Error())
		return nil
	}
	pf.timed = !st.LatestDeadlockTime.IsZero()
	at := inZone(st.LatestDeadlockTime, p.run.opts.Location)
	pf.samples = append(pf.samples, pileSample{at: at, innodb: st})
	if pf.timed {
		p.sess.Notes = append(p.sess.Notes, filepath.Base(pf.path)+": InnoDB status sections without the monitor header: placed at the deadlock's time")
	}
	return nil
}
