package importers

import (
	"bytes"
	"fmt"
	"strings"
)

// The one table of what the importers read: each kind of file with the test
// that tells it from a file's first bytes and the reader that takes it. A new
// layout is a file holding its kind, its sniff and its reader, and one line
// in kinds; a test fails when a kind lacks a sniff or a reader.

// fileKind is what one file holds.
type fileKind string

const (
	kindNone        fileKind = ""
	kindShellLoops  fileKind = "shell-loops"
	kindInnoDB      fileKind = "innodb-status"
	kindStatusBoxed fileKind = "status-boxed" // mysqladmin extended-status, mysql -t SHOW STATUS
	kindStatusTSV   fileKind = "status-tsv"   // mysql -B SHOW GLOBAL STATUS
	kindStatusPair  fileKind = "status-pair"  // pt-mysql-summary's mysql-status-defer: `name first second`
	kindVariables   fileKind = "variables"    // SHOW GLOBAL VARIABLES, either layout
	kindProcesslist fileKind = "processlist"  // \G, boxed or tab-separated
	kindTSStamped   fileKind = "ts-stamped"   // pt-stalk's TS-stamped /proc/stat, /proc/vmstat, /proc/diskstats
	kindDiskstats   fileKind = "diskstats"    // one bare /proc/diskstats copy
	kindVmstat      fileKind = "vmstat"
	kindIostat      fileKind = "iostat" // iostat -dx N (sysstat)
)

// kindSpec is one kind of file and how it is read.
type kindSpec struct {
	kind fileKind
	// sniff tells the kind from a file's first bytes and their non-blank
	// lines (never empty). Sniffs are tried in the order of kinds.
	sniff func(head []byte, lines []string) bool
	// own is the format of a capture of this kind alone that has a reader of
	// its own; "" when the kind is read only in a pile.
	own    Format
	reader func(*run) ([]Session, error)
	// pile is the format a pile of this kind alone is named; read turns one
	// file of it into samples. A kind with no read never goes in a pile.
	pile Format
	read func(*pileReader, *pileFile) error
	// beside: the kind has no samples of its own and goes beside any (SHOW
	// VARIABLES): it names no pile.
	beside bool
}

// kinds, in the order their sniffs are tried. It is filled by init because
// the readers it holds look kinds up again.
var kinds []kindSpec

func init() {
	kinds = []kindSpec{
		{kind: kindShellLoops, sniff: onLines(isStampedLog), own: FormatShellLoops, reader: importShellLoops},
		{kind: kindInnoDB, sniff: onHead(isInnoDBText), own: FormatInnoDBText, reader: importPile, pile: FormatInnoDBText, read: (*pileReader).readInnoDB},
		{kind: kindProcesslist, sniff: isProcesslistFile, pile: FormatProcesslist, read: (*pileReader).readProcesslists},
		{kind: kindVariables, sniff: isVariables, read: (*pileReader).readVariables, beside: true},
		{kind: kindStatusBoxed, sniff: onHead(isBoxedStatus), own: FormatMysqladmin, reader: importMysqladmin, pile: FormatStatusTable, read: (*pileReader).readBoxedStatus},
		{kind: kindStatusTSV, sniff: onLines(isTSVTable), pile: FormatStatusTable, read: (*pileReader).readTSVStatus},
		{kind: kindStatusPair, sniff: onLines(isStatusPair), pile: FormatStatusTable, read: (*pileReader).readStatusPair},
		{kind: kindTSStamped, sniff: isTSStamped, pile: FormatDiskstats, read: (*pileReader).readStamped},
		{kind: kindDiskstats, sniff: isDiskstats, pile: FormatDiskstats, read: (*pileReader).readDiskstats},
		{kind: kindVmstat, sniff: isVmstat, pile: FormatVmstat, read: (*pileReader).readVmstat},
		{kind: kindIostat, sniff: onLines(isIostat), pile: FormatIostat, read: (*pileReader).readIostat},
	}
}

// specOf is the entry of kinds for k.
func specOf(k fileKind) (kindSpec, bool) {
	for _, s := range kinds {
		if s.kind == k {
			return s, true
		}
	}
	return kindSpec{}, false
}

// kindOf tells what a file holds from its first bytes.
func kindOf(head []byte) fileKind {
	lines := headLines(head)
	for _, s := range kinds {
		if s.sniff(head, lines) {
			return s.kind
		}
	}
	return kindNone
}

// readerOf is the reader of a format: a kind's own, the pile for a kind's
// pile format, pt-stalk's; nil for a format no entry names.
func readerOf(format Format) func(*run) ([]Session, error) {
	switch format {
	case FormatPtStalk:
		return importPtStalk
	case FormatPtSummary, FormatFiles:
		return importPile
	}
	for _, s := range kinds {
		if s.own == format {
			return s.reader
		}
	}
	for _, s := range kinds {
		if s.pile == format {
			return importPile
		}
	}
	return nil
}

// readFile reads one file of a pile by its kind's reader; nil for a kind
// that goes beside the samples.
func (p *pileReader) readFile(f sniffed) (*pileFile, error) {
	s, ok := specOf(f.kind)
	if !ok || s.read == nil {
		return nil, fmt.Errorf("%s: no reader for %q files in a pile", f.path, f.kind)
	}
	pf := &pileFile{path: f.path, kind: f.kind}
	if err := s.read(p, pf); err != nil || s.beside {
		return nil, err
	}
	return pf, nil
}

func onHead(f func([]byte) bool) func([]byte, []string) bool {
	return func(head []byte, _ []string) bool { return f(head) }
}

func onLines(f func([]string) bool) func([]byte, []string) bool {
	return func(_ []byte, lines []string) bool { return f(lines) }
}

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

// isVariables: SHOW VARIABLES in a status table's layout.
func isVariables(head []byte, lines []string) bool {
	return (isBoxedStatus(head) || isTSVTable(lines)) && isVariablesTable(lines)
}

func isTSStamped(head []byte, _ []string) bool {
	return bytes.HasPrefix(head, []byte("TS ")) && ptStalkPartOf(head) != ""
}

func isDiskstats(_ []byte, lines []string) bool { return isDiskstatsLine(lines[0]) }

func isVmstat(_ []byte, lines []string) bool {
	return strings.HasPrefix(strings.TrimSpace(lines[0]), "procs")
}
