package importers

// `vmstat N` output: a row per interval, the first the average since boot. Its
// sniff, and its reader in a pile; the rows' parser is snapshot.VmstatParser.

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// kindVmstat is vmstat N output.
const kindVmstat fileKind = "vmstat"

// FormatVmstat is vmstat N output.
const FormatVmstat Format = "vmstat"

func isVmstat(_ []byte, lines []string) bool {
	return strings.HasPrefix(strings.TrimSpace(lines[0]), "procs")
}

// readVmstat reads `vmstat N` rows a second apart. The first row is the
// average since boot: it only sets the base the next rows add to.
func (p *pileReader) readVmstat(pf *pileFile) error {
	var parser parse.VmstatParser
	var acc parse.VmstatHost
	rows := 0
	err := p.run.in.eachLine(pf.path, func(n int, line string) {
		row, ok, err := parser.Line(line)
		if err != nil {
			p.sess.Problems.add(pf.path, n, err.Error())
			return
		}
		if !ok {
			return
		}
		h := acc.Add(row, 1)
		if rows > 0 {
			pf.samples = append(pf.samples, pileSample{off: time.Duration(rows-1) * time.Second, host: h})
		}
		rows++
	})
	if rows > 0 {
		p.sess.Notes = append(p.sess.Notes, filepath.Base(pf.path)+": the first vmstat row (averages since boot) only sets the base")
	}
	return err
}
