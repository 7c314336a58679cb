package importers

// The kernel's stall clocks (/proc/pressure) saved by a loop under TS
// markers, as pt-stalk stamps its /proc copies:
//
//	while sleep 1; do echo "TS $(date +%s.%N) $(date '+%F %T')"; grep . /proc/pressure/*; done
//
// `grep .` prefixes each line with its file ("/proc/pressure/cpu:some
// avg10=…"); `head /proc/pressure/*` heads each file ("==> /proc/pressure/cpu
// <=="): both are read. pt-stalk collects no stall clock, so this goes beside
// shell loops or in a pile with the server's status.

import (
	"bytes"
	"path/filepath"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// kindPressure is TS-stamped copies of /proc/pressure/{cpu,io,memory}.
const kindPressure fileKind = "pressure"

// FormatPressure is a capture of the stall clocks alone.
const FormatPressure Format = "pressure"

// isPressureLog: a TS marker first, then a stall line of a named resource.
func isPressureLog(head []byte, lines []string) bool {
	if !bytes.HasPrefix(head, []byte("TS ")) {
		return false
	}
	var resource string
	var scratch snapshot.Pressure
	for _, l := range lines[1:] {
		if stallLine(l, &resource, &scratch) {
			return true
		}
	}
	return false
}

// readPressure reads one Pressure per TS block, on its own clock.
func (p *pileReader) readPressure(pf *pileFile) error {
	pf.timed = true
	r := &ptReader{in: p.run.in, sess: p.sess, loc: p.run.opts.Location}
	return r.eachTSBlock(pf.path, func(t time.Time, lines []string) {
		if ps := pressureOf(lines); ps != nil {
			pf.samples = append(pf.samples, pileSample{at: t, part: snapshot.CollectorPressure,
				set: func(s *snapshot.Snapshot) { s.Pressure = ps }})
		}
	})
}

// pressureOf is one block's reading; nil when it holds no stall line.
func pressureOf(lines []string) *snapshot.Pressure {
	var ps snapshot.Pressure
	var resource string
	read := false
	for _, l := range lines {
		read = stallLine(l, &resource, &ps) || read
	}
	if !read {
		return nil
	}
	return &ps
}

// stallLine reads one stall line into p, by its resource: the grep
// prefix's file, or the file of the head header before it, which sets
// *resource for the lines that follow. False for any other line.
func stallLine(line string, resource *string, p *snapshot.Pressure) bool {
	l := strings.TrimSpace(line)
	if header, ok := strings.CutPrefix(l, "==> "); ok {
		*resource = filepath.Base(strings.TrimSpace(strings.TrimSuffix(header, "<==")))
		return false
	}
	name := *resource
	if path, rest, ok := strings.Cut(l, ":"); ok && strings.Contains(path, "pressure/") {
		name, l = filepath.Base(path), rest
	}
	stall := parse.PressureOf(p, name)
	return stall != nil && parse.PressureLine(l, stall)
}
