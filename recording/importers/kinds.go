package importers

import (
	"fmt"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The one table of what the importers read: each kind of file with the test
// that tells it from a file's first bytes and the reader that takes it, and
// the collections told by their files' names. A new layout is one file
// holding its kind, its sniff, its reader and what it leaves missing, and one
// row in kinds; tests fail when a row lacks a sniff, a reader or a fixture
// (kinds_test.go).

// fileKind is what one file holds, or the collection a row names.
type fileKind string

// kindNone is a file no sniff tells: named, with why, in Capture.Skipped.
const kindNone fileKind = ""

// kindSpec is one kind of file, or one collection, and how it is read.
type kindSpec struct {
	kind fileKind
	// sniff tells the kind from a file's first bytes and their non-blank
	// lines (never empty). Sniffs are tried in the order of kinds.
	sniff func(head []byte, lines []string) bool
	// named, instead of a sniff, makes the row a collection told by its
	// files' names (pt-stalk's <prefix>-<part>), whose files are of the
	// other kinds.
	named func(name string) bool
	// own is the format of a capture of this kind alone that has a reader of
	// its own; "" when the kind is read only in a pile.
	own    Format
	reader func(*run) ([]Session, error)
	// takes makes own's reader gather a directory: one holding any file of
	// this kind (or named by the collection) is read by it, whatever else it
	// holds, in table order; it takes the files of its own kind and those
	// takes says yes to, and the others are skipped with why.
	takes func(fileKind) bool
	// pile is the format a pile of this kind alone is named (for a
	// collection, a pile of its files); read turns one file of it into
	// samples. A kind with no read never goes in a pile.
	pile Format
	read func(*pileReader, *pileFile) error
	// beside: the kind has no samples of its own and goes beside any (SHOW
	// VARIABLES): it names no pile.
	beside bool
	// besideLoops: read beside shell-loop logs (shell_loops_beside.go).
	besideLoops bool
	// parts are the frame's parts a capture of this kind can carry; every
	// other part of snapshot.Parts its frames are marked "not in this
	// capture" (timeline.go markMissing), as are those it lacks.
	parts []snapshot.CollectorName
	// fixture is a capture of this kind in testdata (a file, or a directory
	// where the kind goes beside others), which kinds_test.go reads.
	fixture string
}

// carries lists the parts of a row.
func carries(parts ...snapshot.CollectorName) []snapshot.CollectorName { return parts }

// kinds, in the order their sniffs are tried and collections gather. It is
// filled by init because the readers it holds look kinds up again.
var kinds []kindSpec

func init() {
	kinds = []kindSpec{
		{kind: kindShellLoops, sniff: onLines(isStampedLog), own: FormatShellLoops, reader: importShellLoops, takes: besideShellLoops,
			parts: carries(snapshot.CollectorStatus, snapshot.CollectorProcesslist, snapshot.CollectorHost, snapshot.CollectorVariables), fixture: "shell-loops"},
		{kind: kindPtStalk, named: isPtStalkName, own: FormatPtStalk, reader: importPtStalk, takes: anyFile,
			parts: carries(snapshot.CollectorStatus, snapshot.CollectorProcesslist, snapshot.CollectorHost, snapshot.CollectorInnoDB, snapshot.CollectorVariables, snapshot.CollectorReplica, snapshot.CollectorLocks), fixture: "ptstalk"},
		{kind: kindPtSummary, named: isSummaryName, pile: FormatPtSummary,
			parts: carries(snapshot.CollectorStatus, snapshot.CollectorProcesslist, snapshot.CollectorInnoDB, snapshot.CollectorVariables, snapshot.CollectorLocks), fixture: "kinds/pt-summary"},
		{kind: kindInnoDB, sniff: onHead(isInnoDBText), own: FormatInnoDBText, reader: importPile, pile: FormatInnoDBText, read: (*pileReader).readInnoDB,
			parts: carries(snapshot.CollectorInnoDB, snapshot.CollectorLocks), fixture: "innodb/concatenated.txt"},
		{kind: kindCPUCount, sniff: isCPUCount, read: (*pileReader).readCPUCount, beside: true, besideLoops: true,
			fixture: "kinds/cpu-count"},
		{kind: kindProcesslist, sniff: isProcesslistFile, pile: FormatProcesslist, read: (*pileReader).readProcesslists,
			parts: carries(snapshot.CollectorProcesslist), fixture: "kinds/processlist.txt"},
		{kind: kindVariables, sniff: isVariables, read: (*pileReader).readVariables, beside: true, besideLoops: true,
			parts: carries(snapshot.CollectorVariables), fixture: "shell-loops-beside"},
		{kind: kindStatusBoxed, sniff: onHead(isBoxedStatus), own: FormatMysqladmin, reader: importMysqladmin, pile: FormatStatusTable, read: (*pileReader).readBoxedStatus,
			parts: carries(snapshot.CollectorStatus), fixture: "mysqladmin-ext-i1-r.txt"},
		{kind: kindStatusTSV, sniff: onLines(isTSVTable), pile: FormatStatusTable, read: (*pileReader).readTSVStatus,
			parts: carries(snapshot.CollectorStatus), fixture: "kinds/status.tsv"},
		{kind: kindStatusPair, sniff: onLines(isStatusPair), pile: FormatStatusTable, read: (*pileReader).readStatusPair,
			parts: carries(snapshot.CollectorStatus), fixture: "kinds/status-pair.txt"},
		{kind: kindPressure, sniff: isPressureLog, pile: FormatPressure, read: (*pileReader).readPressure, besideLoops: true,
			parts: carries(snapshot.CollectorPressure), fixture: "kinds/pressure.txt"},
		{kind: kindTSStamped, sniff: isTSStamped, pile: FormatDiskstats, read: (*pileReader).readStamped, besideLoops: true,
			parts: carries(snapshot.CollectorHost), fixture: "kinds/ts-stamped.txt"},
		{kind: kindDiskstats, sniff: isDiskstats, pile: FormatDiskstats, read: (*pileReader).readDiskstats, besideLoops: true,
			parts: carries(snapshot.CollectorHost), fixture: "kinds/diskstats.txt"},
		{kind: kindVmstat, sniff: isVmstat, pile: FormatVmstat, read: (*pileReader).readVmstat, besideLoops: true,
			parts: carries(snapshot.CollectorHost), fixture: "kinds/vmstat.txt"},
		{kind: kindMpstat, sniff: onLines(isMpstat), read: (*pileReader).readMpstat, beside: true, besideLoops: true,
			fixture: "shell-loops-beside"},
		{kind: kindTop, sniff: isTopBatch, read: (*pileReader).readTop, beside: true, besideLoops: true,
			parts: carries(snapshot.CollectorHost), fixture: "shell-loops-top"},
		{kind: kindPs, sniff: isPsListing, read: (*pileReader).readPs, beside: true, besideLoops: true,
			parts: carries(snapshot.CollectorHost), fixture: "shell-loops-top"},
		{kind: kindIostat, sniff: onLines(isIostat), pile: FormatIostat, read: (*pileReader).readIostat, besideLoops: true,
			parts: carries(snapshot.CollectorHost), fixture: "shell-loops-beside/iostat-x.log"},
	}
}

// anyFile: a collection's reader takes every file, naming those it leaves
// out itself.
func anyFile(fileKind) bool { return true }

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
		if s.sniff != nil && s.sniff(head, lines) {
			return s.kind
		}
	}
	return kindNone
}

// readerOf is the reader of a format: a row's own, or the pile for a row's
// pile format or a pile of mixed files; nil for a format no row names.
func readerOf(format Format) func(*run) ([]Session, error) {
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
	if format == FormatFiles {
		return importPile
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
