package parse

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// VmstatRow is one line of `vmstat N` figures by column name (r, b, us, cs...).
// Columns the running vmstat did not print are absent.
type VmstatRow map[string]int64

// defaultVmstatColumns is procps vmstat's layout, assumed until a header is seen.
var defaultVmstatColumns = strings.Fields("r b swpd free buff cache si so bi bo in cs us sy id wa st")

// VmstatParser reads vmstat output line by line. vmstat repeats its two header
// lines (without -n) and versions differ in columns (gu, -t timestamps), so the
// latest column header decides what each field means.
type VmstatParser struct {
	cols []string
}

// Line parses one line. Header lines update the layout and return ok false
// with no error; a line that is neither header nor figures is an error.
func (p *VmstatParser) Line(line string) (row VmstatRow, ok bool, err error) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return nil, false, nil
	}
	switch {
	case strings.HasPrefix(fields[0], "procs"):
		return nil, false, nil
	case fields[0] == "r" && len(fields) > 1 && fields[1] == "b":
		p.cols = fields
		return nil, false, nil
	}
	cols := p.cols
	if cols == nil {
		cols = defaultVmstatColumns
	}
	if len(fields) < len(cols) {
		return nil, false, fmt.Errorf("vmstat line has %d fields, header has %d", len(fields), len(cols))
	}
	row = make(VmstatRow, len(cols))
	for i, c := range cols {
		if strings.ToLower(c) != c {
			break // vmstat -t ends with a time zone column holding the date
		}
		v, err := strconv.ParseInt(fields[i], 10, 64)
		if err != nil {
			return nil, false, fmt.Errorf("vmstat column %s: %q is not a number", c, fields[i])
		}
		row[c] = v
	}
	return row, true, nil
}

// swapPageKB is the page size vmstat's si/so KiB are converted with; Linux swaps
// 4 KiB pages on every architecture a DBA meets.
const swapPageKB = 4

// VmstatHost turns vmstat's per-interval figures into the cumulative counters
// a Host holds, so Delta over the resulting Hosts gives back vmstat's own
// figures: CPU percent states accumulate as percent × seconds (Delta then
// yields the same shares, normalised when vmstat's rounding does not sum to
// 100), si/so KiB/s as swapped pages and cs/in as counts.
type VmstatHost struct {
	// NumCPU scales CPU seconds when known; the shares Delta computes do not
	// depend on it.
	NumCPU int

	cpu                     snapshot.CPUTimes
	swapIn, swapOut, cs, in float64
}

// Add accounts a row covering the given seconds and returns the Host after it.
// The first row of a vmstat run is the average since boot; passing it with any
// positive seconds only sets the starting point.
func (v *VmstatHost) Add(row VmstatRow, seconds float64) *snapshot.Host {
	cpus := float64(max(v.NumCPU, 1))
	cpuSec := func(col string) float64 { return float64(row[col]) / 100 * seconds * cpus }
	v.cpu.User += cpuSec("us")
	v.cpu.System += cpuSec("sy")
	v.cpu.Idle += cpuSec("id")
	v.cpu.IOWait += cpuSec("wa")
	v.cpu.Steal += cpuSec("st")
	v.swapIn += float64(row["si"]) * seconds / swapPageKB
	v.swapOut += float64(row["so"]) * seconds / swapPageKB
	v.cs += float64(row["cs"]) * seconds
	v.in += float64(row["in"]) * seconds
	return &snapshot.Host{
		NumCPU:          v.NumCPU,
		CPU:             v.cpu,
		ProcsRunning:    row["r"],
		ProcsBlocked:    row["b"],
		ContextSwitches: uint64(math.Round(v.cs)),
		Interrupts:      uint64(math.Round(v.in)),
		SwapInPages:     uint64(math.Round(v.swapIn)),
		SwapOutPages:    uint64(math.Round(v.swapOut)),
		MemFree:         kib(row, "free"),
		MemBuffers:      kib(row, "buff"),
		MemCached:       kib(row, "cache"),
	}
}

func kib(row VmstatRow, col string) uint64 {
	v := row[col]
	if v < 0 {
		return 0
	}
	return uint64(v) * 1024
}
