package importers

import "strings"

// A raw `top -b` file (`top -b -d 1 > top.log`) beside shell loops or in a
// pile: its iterations carry only a time of day, dated on the capture's
// first day (host_tables.go). Stamped by a loop, top's lines are read with
// the loop's (shell_loops_tables.go).

// kindTop is `top -b` output.
const kindTop fileKind = "top"

// isTopBatch: the file opens with top's header line.
func isTopBatch(_ []byte, lines []string) bool {
	return isTopHeader(lines[0]) && strings.Contains(lines[0], "load average")
}

// readTop keeps the file's iterations for placing beside the rest.
func (p *pileReader) readTop(pf *pileFile) error {
	var tp topParser
	if err := p.run.in.eachLine(pf.path, func(_ int, line string) { tp.line(line) }); err != nil {
		return err
	}
	p.tl.tables.addTop(pf.path, tp.samples, nil)
	return nil
}
