package importers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The one place that tells what a capture is. Every file is classified by its
// content (never its name: captures get renamed when mailed around; names
// only tell collections, pt-stalk's and pt-mysql-summary's, and word the
// reasons), then the set of kinds decides the format and so the reader, each
// by the rows of kinds. A file no reader takes is named, with why, in
// Capture.Skipped.

// sniffBytes is how much of each file is read to classify it.
const sniffBytes = 64 << 10

// sniffed is one classified file; why says what a kindNone file is and lacks.
type sniffed struct {
	path string
	kind fileKind
	why  string
}

// detect tells what kind of capture path holds.
func detect(path string) (Format, error) {
	format, _, err := plan(path)
	return format, err
}

// plan classifies the files of path and picks the format that reads them.
func plan(path string) (Format, []sniffed, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", nil, err
	}
	files, others, err := listFiles(path)
	if err != nil {
		return "", nil, err
	}
	all := make([]sniffed, len(files), len(files)+len(others))
	for i, f := range files {
		all[i] = classify(f)
	}
	all = append(all, others...)
	if !st.IsDir() {
		if all[0].kind == kindNone {
			return "", nil, fmt.Errorf("%s: %s", path, all[0].why)
		}
		return formatOfFile(all[0]), all, nil
	}
	format := formatOfDir(all)
	if format == "" {
		return "", nil, fmt.Errorf("%s: no capture found in this directory (%s)", path, dirSummary(all))
	}
	return format, all, nil
}

// formatOfFile: a kind with a reader of its own keeps it; a file named as a
// part of a collection (pt-stalk) is read as one; anything else is a pile
// of one.
func formatOfFile(f sniffed) Format {
	if s, ok := specOf(f.kind); ok && s.own != "" {
		return s.own
	}
	for _, s := range kinds {
		if s.named != nil && s.own != "" && s.named(filepath.Base(f.path)) {
			return s.own
		}
	}
	return pileFormat([]sniffed{f})
}

// formatOfDir: a row that gathers (shell loops, pt-stalk) reads the
// directory when any file is of its kind or named as its part, in table
// order; a directory of only one kind with a reader of its own (InnoDB
// outputs, mysqladmin runs: one session per run) keeps that reader;
// anything else is a pile of files put on one timeline.
func formatOfDir(all []sniffed) Format {
	count := map[fileKind]int{}
	for _, f := range all {
		count[f.kind]++
	}
	readable := len(all) - count[kindNone]
	if readable == 0 {
		return ""
	}
	for _, s := range kinds {
		if s.takes != nil && (count[s.kind] > 0 || namesAny(s, all)) {
			return s.own
		}
	}
	for _, s := range kinds {
		if s.own != "" && count[s.kind] == readable {
			return s.own
		}
	}
	return pileFormat(all)
}

// namesAny: some file of all is named as a part of s's collection.
func namesAny(s kindSpec, all []sniffed) bool {
	if s.named == nil {
		return false
	}
	for _, f := range all {
		if s.named(filepath.Base(f.path)) {
			return true
		}
	}
	return false
}

// readsKind tells whether format's reader takes files of kind k: a
// gathering reader its own kind and those its row takes, another reader of
// its own only its kind, a pile every kind it can read.
func readsKind(format Format, k fileKind) bool {
	for _, s := range kinds {
		if s.own == format {
			return k == s.kind || s.takes != nil && s.takes(k)
		}
	}
	s, ok := specOf(k)
	return ok && s.read != nil // a pile takes every kind it can read
}

// dirSummary words why no file of a directory is a capture, in one line.
func dirSummary(all []sniffed) string {
	if len(all) == 0 {
		return "it is empty"
	}
	const shown = 4
	var parts []string
	for _, f := range all[:min(len(all), shown)] {
		parts = append(parts, filepath.Base(f.path)+": "+f.why)
	}
	if len(all) > shown {
		parts = append(parts, fmt.Sprintf("and %d more", len(all)-shown))
	}
	return strings.Join(parts, "; ")
}

// classify tells what one file holds from its first bytes.
func classify(path string) sniffed {
	head, err := readHead(path)
	switch {
	case err != nil:
		return sniffed{path, kindNone, err.Error()}
	case len(bytes.TrimSpace(head)) == 0:
		return sniffed{path, kindNone, "empty file"}
	}
	if k := kindOf(head); k != kindNone {
		return sniffed{path, k, ""}
	}
	return sniffed{path, kindNone, whatItIs(filepath.Base(path), head)}
}

func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, sniffBytes)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return buf[:n], nil
}

// listFiles lists path itself, or the files directly inside it (symbolic
// links followed), in name order; others are the entries that are no file,
// with why they are not read.
func listFiles(path string) (files []string, others []sniffed, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !st.IsDir() {
		return []string{path}, nil, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		full := filepath.Join(path, e.Name())
		st, err := os.Stat(full) // follows a link
		switch {
		case err != nil:
			others = append(others, sniffed{full, kindNone, err.Error()})
		case st.Mode().IsRegular():
			files = append(files, full)
		case st.IsDir():
			others = append(others, sniffed{full, kindNone, "a directory: not read with its parent; give it on its own"})
		default:
			others = append(others, sniffed{full, kindNone, "not a regular file"})
		}
	}
	slices.Sort(files)
	return files, others, nil
}

// headLines are the non-blank lines of head, line endings cut.
func headLines(head []byte) []string {
	var out []string
	for line := range strings.Lines(string(head)) {
		line = strings.TrimRight(line, "\r\n")
		if strings.TrimSpace(line) != "" {
			out = append(out, line)
		}
	}
	return out
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}
