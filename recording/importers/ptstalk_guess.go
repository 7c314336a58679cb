package importers

import (
	"bytes"
	"strconv"
)

// guessPtStalkPart tells which pt-stalk part a file holds from its first bytes,
// for files whose names do not say; "" when it is none the import reads.
func guessPtStalkPart(path string) string {
	head, err := readHead(path)
	if err != nil {
		return ""
	}
	has := func(s string) bool { return bytes.Contains(head, []byte(s)) }
	stamped := bytes.HasPrefix(head, []byte("TS "))
	switch {
	case has("INNODB MONITOR OUTPUT"):
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
	case bytes.HasPrefix(head, []byte("procs ")):
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
