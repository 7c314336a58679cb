package importers

// `mpstat [-P ALL] N` output (sysstat): read only for the CPU count its first
// line gives (cpu_count.go says where else a count comes from).

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// kindMpstat is `mpstat [-P ALL] N` output (sysstat); its first line is
// iostat's, so it is told first.
const kindMpstat fileKind = "mpstat"

// sysstatCPUs is the "(2 CPU)" of sysstat's first line.
var sysstatCPUs = regexp.MustCompile(`\((\d+) CPU\)\s*$`)

func isMpstat(lines []string) bool {
	if !strings.HasPrefix(lines[0], "Linux ") || !sysstatCPUs.MatchString(lines[0]) {
		return false
	}
	for _, l := range lines[1:min(len(lines), 4)] {
		f := strings.Fields(l)
		for i, w := range f {
			if w == "CPU" && i+1 < len(f) && (f[i+1] == "%usr" || f[i+1] == "%user") {
				return true
			}
		}
	}
	return false
}

// readMpstat takes the CPU count from mpstat's header.
func (p *pileReader) readMpstat(pf *pileFile) error {
	done := false
	return p.run.in.eachLine(pf.path, func(_ int, line string) {
		if m := sysstatCPUs.FindStringSubmatch(line); !done && m != nil {
			n, _ := strconv.Atoi(m[1])
			p.tl.setCPUs(n, filepath.Base(pf.path)+" (mpstat)")
			done = true
		}
	})
}
