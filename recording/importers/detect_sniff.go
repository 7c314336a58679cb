package importers

// The content tests behind kinds' sniffs (kinds.go): each tells one layout from the first
// bytes of a file, so detection never reads a whole capture to name it.

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

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

func isStampedLog(lines []string) bool {
	stamped := 0
	for _, l := range lines {
		if hasStamp(l) {
			stamped++
		}
	}
	return stamped > 0 && stamped*2 >= len(lines)
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

// lostNewlines spots a \G processlist flattened onto one line (a copy whose
// line breaks were stripped): its rows can no longer be told apart.
func lostNewlines(head []byte, lines []string) bool {
	return len(lines) <= 2 && len(head) >= 4096 && bytes.Count(head, []byte(" row ***")) > 1
}

func isBoxedStatus(head []byte) bool {
	return bytes.Contains(head, []byte("| Variable_name ")) && bytes.HasPrefix(bytes.TrimSpace(head), []byte("+-"))
}

// isTSVTable: nearly every line a `name<TAB>value` row, as `mysql -B -e
// 'SHOW GLOBAL STATUS'` prints (with or without its header).
func isTSVTable(lines []string) bool {
	rows := 0
	for _, l := range lines {
		if _, _, ok := snapshot.ParseStatusRow(l); ok && strings.Contains(l, "\t") || strings.HasPrefix(l, "Variable_name\t") {
			rows++
		}
	}
	return rows >= 3 && rows*10 >= len(lines)*9
}

// isStatusPair: `Aborted_clients 0 0`, a status name and two values, one
// space apart, on nearly every line (pt-mysql-summary prints the first sample
// and the one taken 10 s later side by side).
func isStatusPair(lines []string) bool {
	rows := 0
	for _, l := range lines {
		f := strings.Split(l, " ")
		if len(f) == 3 && f[0] != "" && f[1] != "" && f[2] != "" && isVariableNameStart(f[0]) {
			rows++
		}
	}
	first := strings.Split(lines[0], " ")
	return rows >= 3 && rows*4 >= len(lines)*3 && len(first) == 3 && isDigits(first[1])
}

func isVariableNameStart(s string) bool { return s[0] >= 'A' && s[0] <= 'Z' }

// isVariablesTable: SHOW VARIABLES and SHOW STATUS print the same layout;
// variable names are lower case, status names capitalised.
func isVariablesTable(lines []string) bool {
	for _, l := range lines {
		name, _, ok := snapshot.ParseBoxedRow(l)
		if !ok {
			name, _, ok = snapshot.ParseStatusRow(l)
		}
		if ok {
			return isLower(name[0])
		}
	}
	return false
}

func isProcesslist(head []byte, lines []string) bool {
	if _, ok := snapshot.ParseProcesslistHeader(lines[0]); ok || isHeaderlessProcessRow(lines[0]) {
		return true
	}
	for _, l := range lines[:min(len(lines), 3)] {
		if _, ok := snapshot.ParseBoxedProcesslistHeader(l); ok {
			return true
		}
	}
	if !bytes.Contains(head, []byte("Command: ")) {
		return false
	}
	for _, l := range lines[:min(len(lines), 3)] {
		if _, ok := snapshot.ParseVerticalRowMarker(l); ok {
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

// isIostat: sysstat's banner ("Linux 6.1 (host) 12/01/26 _x86_64_ (2 CPU)")
// or a `Device ... r/s` header among the first lines.
func isIostat(lines []string) bool {
	if strings.HasPrefix(lines[0], "Linux ") && strings.Contains(lines[0], " CPU)") {
		return true
	}
	for _, l := range lines[:min(len(lines), 4)] {
		if strings.HasPrefix(l, "Device") && strings.Contains(l, " r/s") {
			return true
		}
	}
	return false
}

// isDiskstatsLine: "major minor name" and at least eleven counters.
func isDiskstatsLine(line string) bool {
	f := strings.Fields(line)
	if len(f) < 14 {
		return false
	}
	for _, i := range []int{0, 1, 3, len(f) - 1} {
		if !isDigits(f[i]) {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
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

// ptStalkPartOf tells which part of a pt-stalk collection a file holds from
// its first bytes, for files whose names do not say; "" when none the
// import reads.
func ptStalkPartOf(head []byte) string {
	has := func(s string) bool { return bytes.Contains(head, []byte(s)) }
	stamped := bytes.HasPrefix(head, []byte("TS "))
	switch {
	case isInnoDBText(head):
		return "innodbstatus1"
	case isBoxedStatus(head):
		return "mysqladmin"
	case has(" row ***") && has("Command: "):
		return "processlist"
	case stamped && has("\ncpu "):
		return "procstat"
	case stamped && has("\npswpin "):
		return "procvmstat"
	case stamped && isDiskstatsRow(head):
		return "diskstats"
	case bytes.HasPrefix(bytes.TrimLeft(head, " "), []byte("procs ")):
		return "vmstat"
	}
	return ""
}

// isDiskstatsRow checks the line under the first TS marker: "major minor name"
// and at least eleven counters.
func isDiskstatsRow(head []byte) bool {
	_, rest, _ := bytes.Cut(head, []byte("\n"))
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	f := bytes.Fields(line)
	if len(f) < 14 {
		return false
	}
	_, err1 := strconv.Atoi(string(f[0]))
	_, err2 := strconv.Atoi(string(f[1]))
	return err1 == nil && err2 == nil
}
