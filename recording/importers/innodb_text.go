package importers

import "strings"

// Saved SHOW ENGINE INNODB STATUS output: one or many outputs, concatenated in
// one file or spread over several, bare or as the mysql client printed them.
// Each output is placed at its own "... INNODB MONITOR OUTPUT" timestamp.

const (
	monitorHeader = "INNODB MONITOR OUTPUT"
	monitorEnd    = "END OF INNODB MONITOR OUTPUT"
)

// isMonitorHeader tells the line that starts an output. `mysql -e` in batch
// mode prints the whole output on one line with its line breaks escaped as
// "\n": that line is its own header and end.
func isMonitorHeader(line string) bool {
	if !strings.Contains(line, monitorHeader) {
		return false
	}
	return !strings.Contains(line, monitorEnd) || strings.Contains(line, `\n`)
}

// splitMonitorOutputs calls emit with each monitor output of a file and the
// line it starts on. A new output starts at the "=====" rule above its header
// line; whatever follows an END OF ... line (the client's row header, "1 row
// in set") belongs to the next.
func splitMonitorOutputs(in *input, path string, emit func(line int, text string)) error {
	var chunk []string
	start, header := 1, false
	flush := func(next int) {
		if header {
			emit(start, strings.Join(chunk, "\n"))
		}
		chunk, start, header = nil, next, false
	}
	err := in.eachLine(path, func(n int, line string) {
		isHeader := isMonitorHeader(line)
		if isHeader && header {
			carry := []string{}
			if k := len(chunk) - 1; k >= 0 && strings.HasPrefix(chunk[k], "=====") {
				carry, chunk = []string{chunk[k]}, chunk[:k]
			}
			flush(n - len(carry))
			chunk = carry
		}
		chunk = append(chunk, line)
		header = header || isHeader
		if strings.Contains(line, monitorEnd) {
			flush(n + 1)
		}
	})
	flush(0)
	return err
}
