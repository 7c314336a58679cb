package importers

import (
	"bytes"
	"fmt"
	"strings"
)

// Words for a file no reader takes: what it is, and that it holds nothing a
// frame is made of. The content says what it is where it can; the names
// pt-mysql-summary and pt-stalk give their parts only word the reason.

// nothingToSample is what every such file lacks.
const nothingToSample = "no status counters, processlist, InnoDB status or host figures in it"

// whatItIs words a file no reader takes, in one line.
func whatItIs(name string, head []byte) string {
	lines := headLines(head)
	has := func(s string) bool { return bytes.Contains(head, []byte(s)) }
	switch {
	case lostNewlines(head, lines):
		return lostNewlinesWhy
	case has("Error in foreign key constraint") || has("Foreign key constraint fails") || has("because it is referenced by"):
		return "a LATEST FOREIGN KEY ERROR message without the InnoDB status around it: no time, no counters"
	case isSideBySideStatus(lines):
		return "a table of status values side by side (pt-mext output), not the samples it was made from: " +
			"give the mysqladmin extended-status output instead"
	case isTSVTable(lines) || isBoxedStatus(head):
		return "SHOW VARIABLES alone: no samples to put them beside"
	}
	if what, ok := summaryParts[name]; ok {
		return what + ": " + nothingToSample
	}
	if part := ptStalkPartName(name); part != "" {
		return fmt.Sprintf("pt-stalk's %s part: not read (it repeats what other parts hold, or has no place in a frame)", part)
	}
	switch {
	case has("-- MySQL dump"):
		return "a mysqldump file: " + nothingToSample
	case len(lines) > 0 && strings.HasPrefix(strings.TrimSpace(lines[0]), "["):
		return "an option file: " + nothingToSample
	case bytes.IndexByte(head, 0) >= 0:
		return "binary data, not text a server or tool printed"
	}
	first := ""
	if len(lines) > 0 {
		first = lines[0]
	}
	return fmt.Sprintf("not a capture mytop-go can import (starts %.40q; want timestamped shell-loop logs, a pt-stalk "+
		"collection, mysqladmin extended-status, SHOW STATUS, processlist or InnoDB status text, vmstat or /proc/diskstats)", first)
}

// isSideBySideStatus: `Aborted_clients   164   0   0`, one status name then
// several numbers, space-separated.
func isSideBySideStatus(lines []string) bool {
	if len(lines) < 3 {
		return false
	}
	for _, l := range lines[:3] {
		f := strings.Fields(l)
		if len(f) < 3 || strings.Contains(l, "\t") || !isVariableNameStart(f[0]) {
			return false
		}
		for _, v := range f[1:] {
			if !isDigits(v) {
				return false
			}
		}
	}
	return true
}
