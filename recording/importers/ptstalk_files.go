package importers

import (
	"bytes"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Which file of a pt-stalk directory is which part of which collection.

// ptStalkParts are the file suffixes pt-stalk writes that the import reads;
// other parts (iostat, mpstat, df, lock-waits...) repeat what these hold or
// have no place in a Snapshot.
var ptStalkParts = []string{
	"processlist", "mysqladmin", "innodbstatus1", "innodbstatus2", "variables",
	"vmstat", "diskstats", "procstat", "procvmstat", "hostname", "output",
}

// ptGroup is one collection: its prefix and its files by part.
type ptGroup struct {
	prefix string
	files  map[string]string
}

// groupPtStalk sorts files into collections by prefix; the part suffix says
// what a file holds. Files with no pt-stalk name at all (renamed, or a single
// part given alone) are placed by their content in a collection of their own.
func groupPtStalk(files []string) []ptGroup {
	byPrefix := map[string]*ptGroup{}
	var order, unnamed []string
	add := func(prefix, part, file string) {
		g := byPrefix[prefix]
		if g == nil {
			g = &ptGroup{prefix: prefix, files: map[string]string{}}
			byPrefix[prefix] = g
			order = append(order, prefix)
		}
		if _, taken := g.files[part]; !taken {
			g.files[part] = file
		}
	}
	for _, f := range files {
		if prefix, part := splitPtStalkName(filepath.Base(f)); part != "" {
			add(prefix, part, f)
		} else {
			unnamed = append(unnamed, f)
		}
	}
	for _, f := range unnamed {
		if hasKnownPrefix(filepath.Base(f), byPrefix) {
			continue // a part of a named collection the import does not read
		}
		if part := guessPtStalkPart(f); part != "" {
			add("", part, f)
		}
	}
	slices.Sort(order)
	out := make([]ptGroup, 0, len(order))
	for _, p := range order {
		out = append(out, *byPrefix[p])
	}
	return out
}

func hasKnownPrefix(name string, groups map[string]*ptGroup) bool {
	for prefix := range groups {
		if prefix != "" && strings.HasPrefix(name, prefix+"-") {
			return true
		}
	}
	return false
}

func splitPtStalkName(name string) (prefix, part string) {
	for _, p := range ptStalkParts {
		if pre, ok := strings.CutSuffix(name, "-"+p); ok {
			return pre, p
		}
	}
	return "", ""
}

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
