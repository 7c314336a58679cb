package importers

import (
	"strings"
	"time"
)

// A loop's stamped `top -b` iterations and `ps -ef`/`ps -eaF` listings
// (`top -b -d 1 | gawk '{ print strftime("%Y/%m/%d %H:%M:%S"), $0 }'`): each
// iteration dated by the stamp on its header line, which, unlike top's own
// clock, carries the day. Their lines are told by shape, as the loops' other
// lines are, so they may share a file with them: an iteration runs from its
// header to the first line that is no part of it.

// loopTables is one file's state: the iteration or listing under way.
type loopTables struct {
	top   topParser
	topAt []time.Time
	inTop bool
	ps    []string // the listings' lines, headers included
	inPs  bool
}

// tableLine files a line of a top iteration or ps listing; false when it is
// neither, for the loops' other readers.
func (r *shellReader) tableLine(lt *loopTables, at int64, t string) bool {
	switch {
	case isTopHeader(t):
		lt.inTop, lt.inPs = true, false
		lt.top.line(t)
		lt.topAt = append(lt.topAt, time.Unix(at, 0).In(r.tl.loc))
		return true
	case lt.inTop && isTopLine(t, lt.top.cols != nil) && lt.top.line(t):
		return true
	case isPsHeader(t):
		lt.inTop, lt.inPs = false, true
		lt.ps = append(lt.ps, t)
		return true
	case lt.inPs && isPsRow(t):
		lt.ps = append(lt.ps, t)
		return true
	}
	lt.inTop, lt.inPs = false, false
	return false
}

// addTables hands the file's iterations and listings to the timeline.
func (r *shellReader) addTables(path string, lt *loopTables) {
	r.tl.tables.addTop(path, lt.top.samples, lt.topAt)
	if len(lt.ps) > 0 {
		r.tl.tables.addPs(path, parsePs(lt.ps))
	}
}

// isTopLine: a line an iteration may hold. Before the column header, only
// top's summary lines; after it, rows, which always hold a user and a state
// letter, where a vmstat row sharing the file is numbers only.
func isTopLine(t string, rows bool) bool {
	if !rows {
		for _, p := range []string{"Tasks:", "Threads:", "%Cpu", "Cpu(s)", "%Node", "KiB ", "MiB ", "GiB ", "TiB ", "PID "} {
			if strings.HasPrefix(t, p) {
				return true
			}
		}
		return false
	}
	return !allNumbers(strings.Fields(t))
}

func isPsHeader(t string) bool {
	f := strings.Fields(t)
	return len(f) > 3 && f[0] == "UID" && f[1] == "PID" && f[2] == "PPID" && f[len(f)-1] == "CMD"
}

// isPsRow: a ps -f row: a user, two numbers (PID, PPID), and words no
// vmstat or status row has.
func isPsRow(t string) bool {
	f := strings.Fields(t)
	return len(f) >= 8 && !strings.Contains(t, "\t") && allNumbers(f[1:3]) && !allNumbers(f)
}

func allNumbers(f []string) bool {
	for _, w := range f {
		for i := 0; i < len(w); i++ {
			if w[i] < '0' || w[i] > '9' {
				return false
			}
		}
	}
	return true
}
