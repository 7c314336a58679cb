package importers

// `iostat -dx N` output (sysstat): a report per interval, the first the
// average since boot. Its sniff, its parser and its reader in a pile.

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// kindIostat is iostat -dx N output (sysstat).
const kindIostat fileKind = "iostat"

// FormatIostat is iostat -dx N output.
const FormatIostat Format = "iostat"

// isIostat: sysstat's banner ("Linux 6.1 (host) 12/01/26 _x86_64_ (2 CPU)")
// or a `Device ... r/s` header among the first lines.
func isIostat(lines []string) bool {
	if strings.HasPrefix(lines[0], "Linux ") && strings.Contains(lines[0], " CPU)") {
		return true
	}
	for _, l := range lines[:min(len(lines), 4)] {
		if strings.HasPrefix(l, "Device") && strings.Contains(l, " r/s") {
			return true
		}
	}
	return false
}

// readIostat reads `iostat -dx N` reports, N seconds apart (--interval, else
// one), on their own clock when iostat ran with -t. The first report, the
// average since boot, only sets the base.
func (p *pileReader) readIostat(pf *pileFile) error {
	raw, err := os.ReadFile(pf.path)
	if err != nil {
		return err
	}
	p.run.in.advance(int64(len(raw)))
	reports, bad, first := parseIostat(string(raw))
	if bad > 0 {
		p.sess.Problems.add(pf.path, 0, fmt.Sprintf("not an iostat row: %.40q", first))
		p.sess.Problems.Count += bad - 1
	}
	if len(reports) < 2 {
		return nil
	}
	interval := p.run.opts.Interval
	if interval <= 0 {
		interval = time.Second
	}
	pf.timed = !reports[0].Time.IsZero()
	var acc iostatDisks
	acc.Add(reports[0], 1)
	for i, r := range reports[1:] {
		secs := interval.Seconds()
		if pf.timed && !r.Time.IsZero() && r.Time.After(reports[i].Time) {
			secs = r.Time.Sub(reports[i].Time).Seconds()
		}
		s := pileSample{off: time.Duration(i) * interval, host: &snapshot.Host{Disks: acc.Add(r, secs)}}
		if pf.timed {
			s.at = inZone(r.Time, p.run.opts.Location)
		}
		pf.samples = append(pf.samples, s)
	}
	p.sess.Notes = append(p.sess.Notes, filepath.Base(pf.path)+": the first iostat report (averages since boot) only sets the base")
	return nil
}

// `iostat -dx N` (sysstat) prints one report per interval: a `Device ...`
// header naming its columns, one row per device; with -t a time line before
// each report, without -d an avg-cpu block too. Column names differ between
// sysstat versions (await or r_await/w_await, avgqu-sz or aqu-sz, rkB/s or
// rsec/s), so the latest header decides what each field means. The first
// report is the average since boot.

// iostatReport is one interval's figures, per device by column name.
type iostatReport struct {
	Time    time.Time // zero unless iostat ran with -t
	Devices []iostatDevice
}

// iostatDevice is one device's row.
type iostatDevice struct {
	Name   string
	Values map[string]float64
}

// parseIostat splits iostat output into reports; lines that fit no report
// are counted in bad, with the first one's text.
func parseIostat(text string) (reports []iostatReport, bad int, first string) {
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
			reports = append(reports, iostatReport{Time: at})
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

func iostatRow(f, cols []string) (iostatDevice, error) {
	if len(f) != len(cols)+1 {
		return iostatDevice{}, fmt.Errorf("iostat row has %d columns, header has %d", len(f)-1, len(cols))
	}
	d := iostatDevice{Name: f[0], Values: make(map[string]float64, len(cols))}
	for i, c := range cols {
		v, err := strconv.ParseFloat(strings.Replace(f[i+1], ",", ".", 1), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return iostatDevice{}, fmt.Errorf("iostat column %s: %q is not a figure", c, f[i+1])
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

// iostatDisks turns iostat's per-interval figures into the cumulative
// counters /proc/diskstats would hold, so Delta over them gives back iostat's
// own r/s, w/s, %util and await.
type iostatDisks struct {
	acc   map[string]*[9]float64
	order []string
}

// Add accounts a report covering the given seconds and returns the devices'
// counters after it.
func (a *iostatDisks) Add(r iostatReport, seconds float64) []snapshot.DiskCounters {
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
	out := make([]snapshot.DiskCounters, 0, len(a.order))
	for _, name := range a.order {
		c := a.acc[name]
		out = append(out, snapshot.DiskCounters{Name: name, Reads: roundIOCount(c[0]), Writes: roundIOCount(c[1]), ReadBytes: roundIOCount(c[2]),
			WriteBytes: roundIOCount(c[3]), ReadTimeMS: roundIOCount(c[4]), WriteMS: roundIOCount(c[5]), IOTimeMS: roundIOCount(c[6]),
			WeightedIOMS: roundIOCount(c[7]), Flushes: roundIOCount(c[8])})
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

func roundIOCount(x float64) uint64 { return uint64(math.Round(x)) }
