package parse

import (
	"fmt"
	"strings"
)

// ReplicaStatusSample is one sample of a file of repeated replica status
// outputs: its rows (one per channel, none when the server was no replica),
// and the TS marker line that opened it, if the capture wrote one.
type ReplicaStatusSample struct {
	Marker string
	Rows   []map[string]string
}

// ParseReplicaStatusSamples reads \G output of SHOW SLAVE STATUS, SHOW
// REPLICA STATUS or SHOW ALL SLAVES/REPLICAS STATUS, repeated once a
// sample as pt-stalk's -slave-status file holds it: a sample starts at the
// echoed statement line or at a `TS <epoch>` marker (whichever the file
// uses; a file with neither is one sample). Fields are kept as the server
// spelt them; a line that is neither a field nor a continuation of a multi-
// line value (Last_SQL_Error quotes statements) is reported with its number.
func ParseReplicaStatusSamples(text string) ([]ReplicaStatusSample, []error) {
	p := replicaStatusParser{}
	n := 0
	for line := range strings.Lines(text) {
		n++
		p.line(n, strings.TrimRight(line, "\r\n"))
	}
	p.flush()
	if len(p.out) == 0 && strings.TrimSpace(text) != "" {
		p.out = []ReplicaStatusSample{{}}
	}
	return p.out, p.errs
}

type replicaStatusParser struct {
	out     []ReplicaStatusSample
	cur     *ReplicaStatusSample
	row     map[string]string
	lastKey string
	// stamped: the file has TS markers, which then alone start samples.
	stamped bool
	errs    []error
}

func (p *replicaStatusParser) line(n int, line string) {
	trimmed := strings.TrimSpace(line)
	switch {
	case strings.HasPrefix(trimmed, "TS "):
		p.stamped = true
		p.start(trimmed)
	case isReplicaStatusEcho(trimmed):
		if !p.stamped {
			p.start("")
		}
	case trimmed == "":
	default:
		if _, ok := ParseVerticalRowMarker(line); ok {
			p.endRow()
			if p.cur == nil {
				p.start("")
			}
			p.row = map[string]string{}
			return
		}
		p.field(n, line)
	}
}

func (p *replicaStatusParser) field(n int, line string) {
	if p.row == nil {
		p.errs = append(p.errs, fmt.Errorf("line %d: text outside a status row: %.40q", n, line))
		return
	}
	if k, v, ok := parseVerticalField(line); ok {
		p.row[k], p.lastKey = v, k
		return
	}
	if p.lastKey != "" {
		p.row[p.lastKey] += "\n" + line
	}
}

func (p *replicaStatusParser) start(marker string) {
	p.flush()
	p.cur = &ReplicaStatusSample{Marker: marker}
}

func (p *replicaStatusParser) endRow() {
	if p.row != nil && p.cur != nil {
		p.cur.Rows = append(p.cur.Rows, p.row)
	}
	p.row, p.lastKey = nil, ""
}

func (p *replicaStatusParser) flush() {
	p.endRow()
	if p.cur != nil {
		p.out = append(p.out, *p.cur)
	}
	p.cur = nil
}

// isReplicaStatusEcho recognises the statement line a capture echoes before
// each output.
func isReplicaStatusEcho(line string) bool {
	up := strings.ToUpper(strings.TrimRight(strings.TrimSuffix(strings.TrimSpace(line), `\G`), "; "))
	switch up {
	case "SHOW SLAVE STATUS", "SHOW REPLICA STATUS", "SHOW ALL SLAVES STATUS", "SHOW ALL REPLICAS STATUS":
		return true
	}
	return false
}
