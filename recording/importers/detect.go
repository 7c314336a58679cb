package importers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
)

// sniffBytes is how much of each file Detect reads.
const sniffBytes = 64 << 10

// Detect tells what kind of capture path holds, from the files' content (never
// their names: captures get renamed when mailed around).
func Detect(path string) (Format, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		if f := sniffFile(path); f != "" {
			return f, nil
		}
		return "", fmt.Errorf("%s: not a capture mytop-go can import (want timestamped shell-loop logs, a pt-stalk collection, mysqladmin extended-status output or InnoDB status text)", path)
	}
	files, err := regularFiles(path)
	if err != nil {
		return "", err
	}
	seen := map[Format]int{}
	for _, f := range files {
		seen[sniffFile(f)]++
	}
	switch {
	case seen[FormatShellLoops] > 0:
		return FormatShellLoops, nil
	case seen[FormatPtStalk] > 0:
		return FormatPtStalk, nil
	case seen[FormatMysqladmin] > 0:
		return FormatMysqladmin, nil
	case seen[FormatInnoDBText] > 0:
		return FormatInnoDBText, nil
	}
	return "", fmt.Errorf("%s: no capture found in this directory (empty or unrelated files)", path)
}

// sniffFile classifies one file by its first bytes; "" when unrecognised. Parts
// of a pt-stalk collection that are no other format (\G processlists, TS
// markers, bare vmstat) read as pt-stalk.
func sniffFile(path string) Format {
	head, err := readHead(path)
	if err != nil || len(head) == 0 {
		return ""
	}
	var lines, stamped int
	for line := range bytes.Lines(head) {
		line = bytes.TrimRight(line, "\r\n")
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		lines++
		if hasStamp(line) {
			stamped++
		}
	}
	switch {
	case stamped > 0 && stamped*2 >= lines:
		return FormatShellLoops
	case bytes.Contains(head, []byte("INNODB MONITOR OUTPUT")):
		return FormatInnoDBText
	case isBoxedStatus(head):
		return FormatMysqladmin
	case isPtStalkPart(head):
		return FormatPtStalk
	}
	return ""
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

// hasStamp reports whether line starts with `YYYY/MM/DD HH:MM:SS` (or with
// dashes in the date).
func hasStamp[T ~string | ~[]byte](line T) bool {
	const shape = "dddd/dd/dd dd:dd:dd"
	if len(line) < len(shape) || (line[4] != '/' && line[4] != '-') || line[7] != line[4] {
		return false
	}
	for i := 0; i < len(shape); i++ {
		c := line[i]
		switch shape[i] {
		case 'd':
			if c < '0' || c > '9' {
				return false
			}
		case '/':
		default:
			if c != shape[i] {
				return false
			}
		}
	}
	return true
}

func isBoxedStatus(head []byte) bool {
	return bytes.Contains(head, []byte("| Variable_name ")) && bytes.HasPrefix(bytes.TrimSpace(head), []byte("+-"))
}

// ptStalkMarkers are lines only pt-stalk's files start with or contain.
var ptStalkMarkers = [][]byte{
	[]byte("*************************** 1. row ***"),
	[]byte("\nTS 1"),
}

func isPtStalkPart(head []byte) bool {
	if bytes.HasPrefix(head, []byte("TS ")) || bytes.HasPrefix(head, []byte("procs ")) {
		return true
	}
	for _, m := range ptStalkMarkers {
		if bytes.Contains(head, m) {
			return true
		}
	}
	return false
}

// regularFiles lists path itself, or the regular files directly inside it, in
// name order.
func regularFiles(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() {
			out = append(out, filepath.Join(path, e.Name()))
		}
	}
	slices.Sort(out)
	return out, nil
}
