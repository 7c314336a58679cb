package importers

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Which file of a pt-stalk directory is which part of which collection.

// ptStalkParts are the file suffixes pt-stalk writes that the import reads;
// other parts (iostat, mpstat, df...) repeat what these hold or have no
// place in a Snapshot. lock-waits and transactions make the lock tree
// (ptstalk_locks.go); meminfo, netstat_s, top and ps the host's memory,
// TCP counters and CPU per process (ptstalk_host_extras.go), netstat the
// server's client connections' queues (ptstalk_netstat.go), mpstat the
// CPU count where nothing else gives it.
var ptStalkParts = []string{
	"processlist", "mysqladmin", "innodbstatus1", "innodbstatus2", "variables",
	"vmstat", "diskstats", "procstat", "procvmstat", "hostname", "output", "slave-status",
	"lock-waits", "transactions", "meminfo", "netstat_s", "netstat", "top", "ps", "mpstat",
}

// ptGroup is one collection: its prefix and its files by part.
type ptGroup struct {
	prefix string
	files  map[string]string
}

// groupPtStalk sorts files into collections by prefix; the part suffix says
// what a file holds. Files with no pt-stalk name at all (renamed, or a single
// part given alone) are placed by their content in a collection of their own.
// Every file left out is named in r.skipped; the parts pt-stalk writes that
// the import does not read share one line.
func groupPtStalk(r *run) []ptGroup {
	byPrefix := map[string]*ptGroup{}
	var order []string
	var unnamed []sniffed
	add := func(prefix, part, file string) {
		g := byPrefix[prefix]
		if g == nil {
			g = &ptGroup{prefix: prefix, files: map[string]string{}}
			byPrefix[prefix] = g
			order = append(order, prefix)
		}
		if first, taken := g.files[part]; taken {
			r.skip(file, fmt.Sprintf("a second %s part beside %s", part, filepath.Base(first)))
			return
		}
		g.files[part] = file
	}
	for _, f := range r.files {
		if prefix, part := splitPtStalkName(filepath.Base(f.path)); part != "" {
			add(prefix, part, f.path)
		} else {
			unnamed = append(unnamed, f)
		}
	}
	var others []string
	for _, f := range unnamed {
		name := filepath.Base(f.path)
		part := ""
		if f.kind != kindNone {
			part = guessPtStalkPart(f.path)
		}
		switch {
		case isPtStalkName(name):
			others = append(others, ptStalkPartName(name))
		case part != "" && !hasKnownPrefix(name, byPrefix):
			add("", part, f.path)
		case f.kind == kindNone:
			r.skip(f.path, f.why)
		default:
			r.skip(f.path, fmt.Sprintf("%s not named as a part of its collection (a copy?)", f.kind))
		}
	}
	if len(others) > 0 {
		slices.Sort(others)
		others = slices.Compact(others)
		r.skipped = append(r.skipped, fmt.Sprintf("pt-stalk parts %s: not read (they repeat what the parts read hold, or have no place in a frame)", strings.Join(others, ", ")))
	}
	slices.Sort(order)
	out := make([]ptGroup, 0, len(order))
	for _, p := range order {
		out = append(out, *byPrefix[p])
	}
	return out
}

// ptStalkOtherParts are the parts pt-stalk writes that the import does not
// read: they repeat what the read parts hold or have no place in a frame.
var ptStalkOtherParts = []string{
	"df", "disk-space", "dmesg", "iostat", "iostat-overall", "mpstat-overall",
	"mutex-status1", "mutex-status2", "opentables1", "opentables2", "trigger",
	"vmstat-overall", "interrupts", "lsof", "pmap", "sysctl",
	"numastat", "ps-locks-transactions", "log_error", "innodb-status", "mysql-threads",
}

// isPtStalkName: pt-stalk names its files <prefix>-<part>, the prefix a date
// unless --prefix said otherwise. pt-mysql-summary's mysql-variables is no
// part of a collection "mysql".
func isPtStalkName(name string) bool { return ptStalkPartName(name) != "" }

// ptStalkPartName is the part a pt-stalk file name ends with; "" for none.
func ptStalkPartName(name string) string {
	if isSummaryName(name) {
		return ""
	}
	if _, part := splitPtStalkName(name); part != "" {
		return part
	}
	for _, p := range ptStalkOtherParts {
		if pre, ok := strings.CutSuffix(name, "-"+p); ok && pre != "" {
			return p
		}
	}
	return ""
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
	// ps-locks-transactions ends like the transactions part it is not.
	if strings.HasSuffix(name, "-ps-locks-transactions") {
		return "", ""
	}
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
	return ptStalkPartOf(head)
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
	case stamped && has("\nMemTotal:"):
		return "meminfo"
	case stamped && (has("\nIp:\n") || has("\nTcp:\n")):
		return "netstat_s"
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
