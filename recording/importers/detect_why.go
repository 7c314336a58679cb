package importers

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Words for a file no reader takes: what it is, and that it holds nothing a
// frame is made of. The content says what it is where it can; the names
// pt-mysql-summary and pt-stalk give their parts only word the reason.

// nothingToSample is what every such file lacks.
const nothingToSample = "no status counters, processlist, InnoDB status or host figures in it"

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
	text, ok := snapshot.RestoreVerticalLines(string(raw))
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

// summaryParts are pt-mysql-summary --save-samples files that hold no samples.
var summaryParts = map[string]string{
	"mysql-config-file": "pt-mysql-summary's copy of my.cnf", "mysql-databases": "pt-mysql-summary's database list",
	"mysql-master-logs": "pt-mysql-summary's binary log list", "mysql-master-status": "pt-mysql-summary's SHOW MASTER STATUS",
	"mysql-plugins": "pt-mysql-summary's plugin list", "mysql-slave": "pt-mysql-summary's SHOW SLAVE STATUS",
	"mysql-users": "pt-mysql-summary's user count", "mysqld-executables": "pt-mysql-summary's mysqld binary list",
	"mysqld-instances": "pt-mysql-summary's ps lines of mysqld", "mysqldump": "pt-mysql-summary's schema dump",
	"collect.err": "pt-mysql-summary's error log", "encrypted-tables": "pt-mysql-summary's encrypted table list",
	"encrypted-tablespaces": "pt-mysql-summary's encrypted tablespace list", "keyring-plugins": "pt-mysql-summary's keyring plugin list",
	"mysql-roles": "pt-mysql-summary's role list", "mysql-slave-hosts": "pt-mysql-summary's SHOW SLAVE HOSTS",
	"ndb-status": "pt-mysql-summary's NDB status", "tempfile": "pt-mysql-summary's scratch file",
}

// summarySamples are the pt-mysql-summary --save-samples files that hold samples.
var summarySamples = []string{"mysql-status", "mysql-status-defer", "mysql-variables", "mysql-processlist", "innodb-status"}

func isSummaryName(name string) bool {
	_, part := summaryParts[name]
	return part || slices.Contains(summarySamples, name)
}

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
