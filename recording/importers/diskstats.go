package importers

// One bare copy of /proc/diskstats: one sample of the disks' counters. Its
// sniff, and its reader in a pile.

import (
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// kindDiskstats is one bare /proc/diskstats copy.
const kindDiskstats fileKind = "diskstats"

func isDiskstats(_ []byte, lines []string) bool { return isDiskstatsLine(lines[0]) }

// isDiskstatsLine: "major minor name" and at least eleven counters; the
// name is never a number (a vmstat row has as many numbers).
func isDiskstatsLine(line string) bool {
	f := strings.Fields(line)
	if len(f) < 14 || isDigits(f[2]) {
		return false
	}
	for _, i := range []int{0, 1, 3, len(f) - 1} {
		if !isDigits(f[i]) {
			return false
		}
	}
	return true
}

// readDiskstats reads one bare /proc/diskstats copy.
func (p *pileReader) readDiskstats(pf *pileFile) error {
	var lines []string
	err := p.run.in.eachLine(pf.path, func(n int, line string) {
		if isDiskstatsLine(line) {
			lines = append(lines, line)
		} else if strings.TrimSpace(line) != "" {
			p.sess.Problems.add(pf.path, n, "not a /proc/diskstats row")
		}
	})
	if err == nil && len(lines) > 0 {
		h := &snapshot.Host{}
		applyDiskstats(h, lines)
		pf.samples = append(pf.samples, pileSample{host: h})
	}
	return err
}
