package snapshot

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// `iostat -dx N` (sysstat) prints one report per interval: a `Device ...`
// header naming its columns, one row per device; with -t a time line before
// each report, without -d an avg-cpu block too. Column names differ between
// sysstat versions (await or r_await/w_await, avgqu-sz or aqu-sz, rkB/s or
// rsec/s), so the latest header decides what each field means. The first
// report is the average since boot.

// IostatReport is one interval's figures, per device by column name.
type IostatReport struct {
	Time    time.Time // zero unless iostat ran with -t
	Devices []IostatDevice
}

// IostatDevice is one device's row.
type IostatDevice struct {
	Name   string
	Values map[string]float64
}

// ParseIostat splits iostat output into reports; lines that fit no report
// are counted in bad, with the first one's text.
func ParseIostat(text string) (reports []IostatReport, bad int, first string) {
	var cols []string
	var at time.Time
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		f := strings.Fields(line)
		switch {
		case len(f) == 0, f[0] == "avg-cpu:", f[0] == "Linux" && len(reports) == 0:
			continue
		case strings.HasPrefix(f[0], "Device"):
			cols = f[1:]
			reports = append(reports, IostatReport{Time: at})
			at = time.Time{}
			continue
		}
		if t, ok := parseIostatTime(line); ok {
			at = t
			continue
		}
		if isCPURow(f) {
			continue
		}
		d, err := iostatRow(f, cols)
		if err != nil || len(reports) == 0 {
			bad, first = bad+1, firstOf(first, line)
			continue
		}
		r := &reports[len(reports)-1]
		r.Devices = append(r.Devices, d)
	}
	return reports, bad, first
}

func firstOf(first, line string) string {
	if first != "" {
		return first
	}
	return line
}

// isCPURow: the numbers under "avg-cpu:" (%user %nice ...), all decimals.
func isCPURow(f []string) bool {
	for _, v := range f {
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return false
		}
	}
	return true
}

func iostatRow(f, cols []string) (IostatDevice, error) {
	if len(f) != len(cols)+1 {
		return IostatDevice{}, fmt.Errorf("iostat row has %d columns, header has %d", len(f)-1, len(cols))
	}
	d := IostatDevice{Name: f[0], Values: make(map[string]float64, len(cols))}
	for i, c := range cols {
		v, err := strconv.ParseFloat(strings.Replace(f[i+1], ",", ".", 1), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return IostatDevice{}, fmt.Errorf("iostat column %s: %q is not a figure", c, f[i+1])
		}
		d.Values[c] = v
	}
	return d, nil
}

// iostatTimeLayouts are what -t prints, by locale.
var iostatTimeLayouts = []string{"01/02/2006 03:04:05 PM", "01/02/06 03:04:05 PM", "01/02/2006 15:04:05", "01/02/06 15:04:05",
	"2006-01-02T15:04:05-0700", "2006-01-02 15:04:05"}

func parseIostatTime(line string) (time.Time, bool) {
	line = strings.TrimSpace(line)
	for _, l := range iostatTimeLayouts {
		if t, err := time.Parse(l, line); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// IostatDisks turns iostat's per-interval figures into the cumulative
// counters /proc/diskstats would hold, so Delta over them gives back iostat's
// own r/s, w/s, %util and await.
type IostatDisks struct {
	acc   map[string]*[9]float64
	order []string
}

// Add accounts a report covering the given seconds and returns the devices'
// counters after it.
func (a *IostatDisks) Add(r IostatReport, seconds float64) []DiskCounters {
	if a.acc == nil {
		a.acc = map[string]*[9]float64{}
	}
	for _, d := range r.Devices {
		c := a.acc[d.Name]
		if c == nil {
			c = &[9]float64{}
			a.acc[d.Name] = c
			a.order = append(a.order, d.Name)
		}
		v := d.Values
		reads, writes := v["r/s"]*seconds, v["w/s"]*seconds
		rAwait, wAwait := iostatPick(v, "r_await", "await"), iostatPick(v, "w_await", "await")
		c[0] += reads
		c[1] += writes
		c[2] += bytesPerSec(v, "rkB/s", "rsec/s") * seconds
		c[3] += bytesPerSec(v, "wkB/s", "wsec/s") * seconds
		c[4] += reads * rAwait
		c[5] += writes * wAwait
		c[6] += v["%util"] / 100 * seconds * 1000
		c[7] += iostatPick(v, "aqu-sz", "avgqu-sz") * seconds * 1000
		c[8] += v["f/s"] * seconds
	}
	out := make([]DiskCounters, 0, len(a.order))
	for _, name := range a.order {
		c := a.acc[name]
		out = append(out, DiskCounters{Name: name, Reads: roundCount(c[0]), Writes: roundCount(c[1]), ReadBytes: roundCount(c[2]),
			WriteBytes: roundCount(c[3]), ReadTimeMS: roundCount(c[4]), WriteMS: roundCount(c[5]), IOTimeMS: roundCount(c[6]),
			WeightedIOMS: roundCount(c[7]), Flushes: roundCount(c[8])})
	}
	return out
}

func iostatPick(v map[string]float64, names ...string) float64 {
	for _, n := range names {
		if x, ok := v[n]; ok {
			return x
		}
	}
	return 0
}

func bytesPerSec(v map[string]float64, kb, sectors string) float64 {
	if x, ok := v[kb]; ok {
		return x * 1024
	}
	return v[sectors] * 512
}

func roundCount(x float64) uint64 { return uint64(math.Round(x)) }
