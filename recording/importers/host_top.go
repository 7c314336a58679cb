package importers

import (
	"strconv"
	"strings"
	"time"
)

// `top -b` output, as pt-stalk's -top part and shell loops keep it: each
// iteration opens with "top - HH:MM:SS up …, load average: a, b, c", then
// the summary lines (Tasks, %Cpu(s), Mem, Swap), a blank line, the column
// header ("PID USER … %CPU %MEM TIME+ COMMAND") and one row per process.
// The columns are found by the header's names, so a toprc that adds or
// moves columns still reads.

// topSample is one iteration of top.
type topSample struct {
	clock        time.Duration // HH:MM:SS since midnight, as top printed it
	load         [3]float64
	hasLoad      bool
	memTotal     uint64 // bytes, from the Mem line; 0 when absent
	memFree      uint64
	memAvailable uint64 // from the Swap line's "avail Mem"
	procs        []topProc
}

// topProc is one process row.
type topProc struct {
	pid     int
	name    string
	cpus    float64 // %CPU / 100: 1.0 is one CPU kept busy
	rss     uint64  // RES, bytes
	cpuTime float64 // TIME+, seconds; -1 when unreadable
}

// topParser reads top's lines one at a time.
type topParser struct {
	samples []topSample
	cols    map[string]int // column index by header name; nil before a header
}

// isTopHeader: the line that opens an iteration.
func isTopHeader(line string) bool { return strings.HasPrefix(line, "top - ") }

// line takes one line; false when it is no part of top's output.
func (p *topParser) line(line string) bool {
	t := strings.TrimSpace(line)
	switch {
	case isTopHeader(line):
		p.samples = append(p.samples, topHeader(line))
		p.cols = nil
		return true
	case len(p.samples) == 0:
		return false
	case t == "":
		return true
	}
	s := &p.samples[len(p.samples)-1]
	switch {
	case strings.HasPrefix(t, "PID ") && strings.Contains(t, "%CPU"):
		p.cols = map[string]int{}
		for i, name := range strings.Fields(t) {
			p.cols[name] = i
		}
	case p.cols != nil:
		if proc, ok := topRow(t, p.cols); ok {
			s.procs = append(s.procs, proc)
			return true
		}
		return false
	default:
		topSummary(t, s)
	}
	return true
}

// topHeader reads "top - 04:14:31 up 13 min,  0 user,  load average: 8.08, 5.89, 3.19".
func topHeader(line string) topSample {
	var s topSample
	f := strings.Fields(line)
	if len(f) >= 3 {
		if c, err := time.Parse(time.TimeOnly, f[2]); err == nil {
			s.clock = time.Duration(c.Hour())*time.Hour + time.Duration(c.Minute())*time.Minute + time.Duration(c.Second())*time.Second
		}
	}
	if _, loads, ok := strings.Cut(line, "load average:"); ok {
		// "8.08, 5.89, 3.19", or "8,08, 5,89, 3,19" where the locale writes decimal commas
		parts := strings.Split(strings.TrimSpace(loads), ", ")
		if len(parts) == 3 {
			s.hasLoad = true
			for i, v := range parts {
				x, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(v), ",", "."), 64)
				s.load[i], s.hasLoad = x, s.hasLoad && err == nil
			}
		}
	}
	return s
}

// topSummary reads the memory lines: "MiB Mem :  24105.3 total,  20181.5
// free, …" and "MiB Swap: … used.  22064.9 avail Mem" (KiB, GiB… as top
// was told to scale them).
func topSummary(t string, s *topSample) {
	unit, rest, ok := strings.Cut(t, " ")
	scale := memUnit(unit)
	if !ok || scale == 0 {
		return
	}
	kind, items, ok := strings.Cut(rest, ":")
	if !ok {
		return
	}
	kind = strings.TrimSpace(kind)
	for _, item := range strings.Split(strings.ReplaceAll(items, "used.", "used,"), ",") {
		f := strings.Fields(item)
		if len(f) < 2 {
			continue
		}
		v, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			continue
		}
		b := uint64(v * scale)
		switch {
		case kind == "Mem" && f[1] == "total":
			s.memTotal = b
		case kind == "Mem" && f[1] == "free":
			s.memFree = b
		case f[1] == "avail":
			s.memAvailable = b
		}
	}
}

// memUnit is the bytes of top's memory unit word.
func memUnit(u string) float64 {
	switch u {
	case "KiB":
		return 1 << 10
	case "MiB":
		return 1 << 20
	case "GiB":
		return 1 << 30
	case "TiB":
		return 1 << 40
	}
	return 0
}

// topRow reads one process row by the header's columns; COMMAND is last and
// may hold spaces.
func topRow(t string, cols map[string]int) (topProc, bool) {
	f := strings.Fields(t)
	get := func(name string) (string, bool) {
		i, ok := cols[name]
		if !ok || i >= len(f) {
			return "", false
		}
		return f[i], true
	}
	pidText, ok1 := get("PID")
	cpuText, ok2 := get("%CPU")
	pid, err := strconv.Atoi(pidText)
	if !ok1 || !ok2 || err != nil {
		return topProc{}, false
	}
	cpu, err := strconv.ParseFloat(strings.ReplaceAll(cpuText, ",", "."), 64)
	if err != nil {
		return topProc{}, false
	}
	p := topProc{pid: pid, cpus: cpu / 100, cpuTime: -1}
	if i, ok := cols["COMMAND"]; ok && i < len(f) {
		p.name = strings.Join(f[i:], " ")
	}
	if res, ok := get("RES"); ok {
		p.rss = topBytes(res)
	}
	if tm, ok := get("TIME+"); ok {
		p.cpuTime = topTime(tm)
	}
	return p, true
}

// topBytes reads a RES figure: KiB by default, or with top's scaling
// suffix (m, g, t, p).
func topBytes(s string) uint64 {
	s = strings.ReplaceAll(s, ",", ".")
	scale := float64(1 << 10)
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 'k':
			s = s[:n-1]
		case 'm':
			scale, s = 1<<20, s[:n-1]
		case 'g':
			scale, s = 1<<30, s[:n-1]
		case 't':
			scale, s = 1<<40, s[:n-1]
		case 'p':
			scale, s = 1<<50, s[:n-1]
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 {
		return 0
	}
	return uint64(v * scale)
}

// topTime reads TIME+ in the forms top narrows it to as it grows:
// "m:ss.hh", "m:ss", "h,mm", "Nh", "Nd", "Nw"; -1 when unreadable.
func topTime(s string) float64 {
	num := func(x string) float64 {
		v, err := strconv.ParseFloat(x, 64)
		if err != nil {
			return -1
		}
		return v
	}
	if m, sec, ok := strings.Cut(s, ":"); ok {
		a, b := num(m), num(sec)
		if a < 0 || b < 0 {
			return -1
		}
		return a*60 + b
	}
	if h, m, ok := strings.Cut(s, ","); ok {
		a, b := num(h), num(m)
		if a < 0 || b < 0 {
			return -1
		}
		return a*3600 + b*60
	}
	if n := len(s); n > 1 {
		unit := map[byte]float64{'h': 3600, 'd': 86400, 'w': 7 * 86400}[s[n-1]]
		if v := num(s[:n-1]); unit > 0 && v >= 0 {
			return v * unit
		}
	}
	return -1
}
