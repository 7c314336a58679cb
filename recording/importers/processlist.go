package importers

// SHOW [FULL] PROCESSLIST saved by the mysql client, in any of its layouts:
// boxed, tab-separated with or without a header (-B, -N), or \G, whole or cut
// from a longer output, or flattened onto one line. Its sniff, and its reader
// in a pile.

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// kindProcesslist is a processlist: \G, boxed or tab-separated.
const kindProcesslist fileKind = "processlist"

// FormatProcesslist is SHOW FULL PROCESSLIST saved by the mysql client.
const FormatProcesslist Format = "processlist"

// isProcesslistFile: a processlist, or one flattened onto a line whose line
// breaks are put back as it is read (lostNewlines). A status table is told
// first, as the tests after this one would.
func isProcesslistFile(head []byte, lines []string) bool {
	if lostNewlines(head, lines) {
		return true
	}
	statusTable := isBoxedStatus(head) || isTSVTable(lines) || isStatusPair(lines)
	return !statusTable && isProcesslist(head, lines)
}

// lostNewlines spots a \G processlist flattened onto one line (a copy whose
// line breaks were stripped): its rows can no longer be told apart.
func lostNewlines(head []byte, lines []string) bool {
	return len(lines) <= 2 && len(head) >= 4096 && bytes.Count(head, []byte(" row ***")) > 1
}

func isProcesslist(head []byte, lines []string) bool {
	if _, ok := parse.ParseProcesslistHeader(lines[0]); ok || isHeaderlessProcessRow(lines[0]) {
		return true
	}
	for _, l := range lines[:min(len(lines), 3)] {
		if _, ok := parse.ParseBoxedProcesslistHeader(l); ok {
			return true
		}
	}
	if !bytes.Contains(head, []byte("Command: ")) {
		return false
	}
	for _, l := range lines[:min(len(lines), 3)] {
		if _, ok := parse.ParseVerticalRowMarker(l); ok {
			return true
		}
	}
	return false
}

// isHeaderlessProcessRow: `mysql -N` prints rows with no header; eight
// tab-separated columns with a numeric Id and Time are a processlist row.
func isHeaderlessProcessRow(line string) bool {
	f := strings.SplitN(line, "\t", 8)
	return len(f) == 8 && isDigits(f[0]) && isDigits(f[5])
}

// lostNewlinesWhy is the reason for a \G processlist flattened onto one line.
const lostNewlinesWhy = "a \\G processlist whose line breaks were lost (all on one line), and they could not be " +
	"put back from its padded column names: its rows and fields cannot be told apart; give the copy with its line breaks"

// restoredNote is what the session learns when line breaks were put back.
const restoredNote = ": a \\G processlist whose line breaks were lost: they were put back from its padded column " +
	"names (a query text holding such a name and a colon would be cut there)"

// errLostNewlines is a flattened processlist that could not be restored.
var errLostNewlines = errors.New(lostNewlinesWhy)

// eachProcesslistLine is in.eachLine, but a \G processlist flattened onto one
// line gets its line breaks back first; restored says it did.
func eachProcesslistLine(in *input, path string, fn func(int, string)) (restored bool, err error) {
	head, err := readHead(path)
	if err != nil {
		return false, err
	}
	if !lostNewlines(head, headLines(head)) {
		return false, in.eachLine(path, fn)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	in.advance(int64(len(raw)))
	text, ok := parse.RestoreVerticalLines(string(raw))
	if !ok {
		return false, errLostNewlines
	}
	n := 0
	for line := range strings.Lines(text) {
		n++
		fn(n, strings.TrimRight(line, "\r\n"))
	}
	return true, nil
}

// readProcesslists reads one or more processlists in any of the client's
// layouts. A new sample starts at a TS marker (pt-stalk), a header row, or
// where \G row numbering starts again; the first may start at any row (a copy
// cut from a longer output).
func (p *pileReader) readProcesslists(pf *pileFile) error {
	pr := &pileProcs{pf: pf, problems: &p.sess.Problems, loc: p.run.opts.Location}
	restored, err := eachProcesslistLine(p.run.in, pf.path, pr.line)
	pr.endRow()
	if restored {
		p.sess.Notes = append(p.sess.Notes, filepath.Base(pf.path)+restoredNote)
	}
	return err
}

type pileProcs struct {
	pf       *pileFile
	problems *Problems
	loc      *time.Location

	cols    parse.ProcesslistColumns
	boxed   bool
	lastRow int
	rec     *parse.ProcessRecord
}

func (pr *pileProcs) line(n int, line string) {
	if t, ok := parseTSMarker(line, pr.loc); ok {
		pr.pf.timed = true
		pr.start(t.In(pr.loc))
		return
	}
	if row, ok := parse.ParseVerticalRowMarker(line); ok {
		if len(pr.pf.samples) == 0 || (row <= pr.lastRow && !pr.pf.timed) {
			pr.start(time.Time{})
		}
		pr.endRow()
		pr.lastRow, pr.rec = row, parse.NewProcessRecord()
		return
	}
	if pr.rec != nil {
		if err := pr.rec.Add(line); err != nil {
			pr.problems.add(pr.pf.path, n, err.Error())
		}
		return
	}
	if why := pr.tableLine(line); why != "" {
		pr.problems.add(pr.pf.path, n, why)
	}
}

// tableLine reads a line of a boxed or tab-separated processlist.
func (pr *pileProcs) tableLine(line string) string {
	if strings.TrimSpace(line) == "" || parse.IsBoxBorder(line) {
		return ""
	}
	if cols, ok := parse.ParseBoxedProcesslistHeader(line); ok {
		pr.cols, pr.boxed = cols, true
		pr.startTable()
		return ""
	}
	if cols, ok := parse.ParseProcesslistHeader(line); ok {
		pr.cols, pr.boxed = cols, false
		pr.startTable()
		return ""
	}
	if pr.cols == nil {
		if strings.Contains(line, "\t") {
			pr.cols = parse.DefaultProcesslistColumns // mysql -N: no header
			pr.startTable()
		} else {
			return "text outside a processlist row"
		}
	}
	parseRow := pr.cols.ParseRow
	if pr.boxed {
		parseRow = pr.cols.ParseBoxedRow
	}
	proc, err := parseRow(line)
	if err != nil {
		return err.Error()
	}
	pr.add(proc)
	return ""
}

// startTable opens a sample at a table header, unless a TS marker just did.
func (pr *pileProcs) startTable() {
	if n := len(pr.pf.samples); n == 0 || !pr.pf.timed || len(pr.pf.samples[n-1].procs) > 0 {
		pr.start(time.Time{})
	}
}

func (pr *pileProcs) start(at time.Time) {
	pr.endRow()
	pr.lastRow = 0
	off := time.Duration(len(pr.pf.samples)) * time.Second
	pr.pf.samples = append(pr.pf.samples, pileSample{at: at, off: off, hasProcs: true, procs: []snapshot.Process{}})
}

func (pr *pileProcs) endRow() {
	if pr.rec != nil {
		pr.add(pr.rec.Process)
	}
	pr.rec = nil
}

func (pr *pileProcs) add(proc snapshot.Process) {
	if len(pr.pf.samples) == 0 {
		pr.start(time.Time{})
	}
	if !isCaptureThread(proc) {
		s := &pr.pf.samples[len(pr.pf.samples)-1]
		s.procs = append(s.procs, proc)
	}
}
