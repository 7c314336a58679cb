package importers

// pt-mysql-summary's mysql-status-defer: `name first second`, the first status
// sample and the one taken 10 s later side by side. Its sniff, and its reader
// in a pile.

import (
	"slices"
	"strings"
)

// kindStatusPair is pt-mysql-summary's mysql-status-defer: `name first second`.
const kindStatusPair fileKind = "status-pair"

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

// readStatusPair reads `name first second` lines as two samples.
func (p *pileReader) readStatusPair(pf *pileFile) error {
	samples := []map[string]string{make(map[string]string, 512), make(map[string]string, 512)}
	err := p.run.in.eachLine(pf.path, func(n int, line string) {
		name, values, _ := strings.Cut(line, " ")
		f := strings.Split(values, " ")
		half := len(f) / 2
		switch {
		case strings.TrimSpace(line) == "":
		case len(f) == 2:
			samples[0][name], samples[1][name] = f[0], f[1]
		case len(f)%2 == 0 && slices.Equal(f[:half], f[half:]):
			// a text value with spaces, the same in both samples
			v := strings.Join(f[:half], " ")
			samples[0][name], samples[1][name] = v, v
		case strings.TrimSpace(values) == "": // empty in both
			samples[0][name], samples[1][name] = "", ""
		default:
			p.sess.Problems.add(pf.path, n, "not a `name first second` row")
		}
	})
	if err == nil && len(samples[0]) > 0 {
		p.addStatus(pf, samples)
	}
	return err
}
