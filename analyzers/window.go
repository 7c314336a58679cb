package analyzers

import (
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// window is what a rule sees: the frames, oldest first, with the current one
// last, and views of the current snapshot computed once per evaluation.
type window struct {
	frames []*snapshot.Frame
	cur    *snapshot.Frame
	snap   *snapshot.Snapshot
	rates  *snapshot.Rates
	procs  *procView
	// counts caches per-frame processlist counts across evaluations, so rules
	// that look back over many frames do not rescan every processlist.
	counts map[int]procCounts
	// fps memoises fingerprints across evaluations (fingerprint); nil: none.
	fps map[string]string
	cfg *Config
	// routineCache is routine(), found on first use.
	routineCache *routineWork
}

func newWindow(frames []*snapshot.Frame, counts map[int]procCounts, cfg *Config) *window {
	cur := frames[len(frames)-1]
	return &window{frames: frames, cur: cur, snap: cur.Snapshot, rates: cur.Rates, counts: counts, cfg: cfg}
}

// maxFingerprints bounds the memo, and maxMemoQuery the statements it
// keeps: a statement longer than that is rare and costs its own length.
const (
	maxFingerprints = 4096
	maxMemoQuery    = 8 << 10
)

// fingerprint is snapshot.Fingerprint, memoised across evaluations: the
// rules that look back over the window's frames meet the same running
// statements in each (a crowded capture spent 1.4 ms a frame there).
func (w *window) fingerprint(q string) string {
	if w.fps == nil || len(q) > maxMemoQuery {
		return snapshot.Fingerprint(q)
	}
	if fp, ok := w.fps[q]; ok {
		return fp
	}
	if len(w.fps) >= maxFingerprints {
		clear(w.fps)
	}
	fp := snapshot.Fingerprint(q)
	w.fps[q] = fp
	return fp
}

// recent returns the last n frames (fewer if the window is shorter).
func (w *window) recent(n int) []*snapshot.Frame {
	return w.frames[max(len(w.frames)-n, 0):]
}

// countsOf returns f's processlist counts, computed once per frame.
func (w *window) countsOf(f *snapshot.Frame) procCounts {
	if c, ok := w.counts[f.Seq]; ok {
		return c
	}
	c := countProcesses(f.Snapshot.Processlist, w.cfg.DeepOffsetMin)
	if w.counts != nil {
		w.counts[f.Seq] = c
	}
	return c
}

// prev is the frame before the current one, or nil.
func (w *window) prev() *snapshot.Frame {
	if len(w.frames) < 2 {
		return nil
	}
	return w.frames[len(w.frames)-2]
}

// processes returns the current processlist view, built on first use.
func (w *window) processes() *procView {
	if w.procs == nil {
		w.procs = newProcView(w.snap.Processlist)
	}
	return w.procs
}

// rate is a status counter's per-second rate over the current interval.
func (w *window) rate(name string) (float64, bool) { return w.rates.Rate(name) }

// unavailable returns why a collector cannot run on this source, if it says so.
func (w *window) unavailable(collector snapshot.CollectorName) string {
	st, ok := w.snap.Collectors[collector]
	if !ok || st.Unavailable == "" {
		return ""
	}
	return fmt.Sprintf("%s collector unavailable: %s", collector, st.Unavailable)
}

// hasStatus reports whether the current snapshot carries status name.
func (w *window) hasStatus(name string) bool {
	_, ok := w.snap.Status[name]
	return ok
}

// statusNA says why a status-based rule cannot run, or "" if it can.
func (w *window) statusNA(names ...string) string {
	if r := w.unavailable(snapshot.CollectorStatus); r != "" {
		return r
	}
	if len(w.snap.Status) == 0 {
		return ""
	}
	for _, n := range names {
		if !w.hasStatus(n) {
			return "no " + n + " in this source"
		}
	}
	return ""
}

// warmingUp says why per-interval ratios mean nothing yet (no previous
// sample, counters just reset, or the server just started), or "".
func (w *window) warmingUp(c *Config) string {
	if w.rates == nil || w.rates.Status == nil {
		return "no previous sample"
	}
	if w.rates.Reset {
		return "counters reset"
	}
	if up, ok := w.snap.Uptime(); ok && up < c.WarmupSeconds {
		return fmt.Sprintf("server up only %d s", up)
	}
	return ""
}

// hostNA says why host figures cannot be judged, or "".
func (w *window) hostNA() string {
	if r := w.unavailable(snapshot.CollectorHost); r != "" {
		return r
	}
	h := w.snap.Host
	if h != nil && h.NotLocal != "" {
		return "not local: " + h.NotLocal + ": host figures are not collected"
	}
	if h != nil && h.Remote {
		return "server is on another machine: host figures are not collected"
	}
	if h == nil && !w.failedThisTick(snapshot.CollectorHost) {
		return "no host figures in this source"
	}
	return ""
}

// failedThisTick reports a collector that timed out or failed this tick: its
// part is missing for now, which is not the same as a source without it.
func (w *window) failedThisTick(collector snapshot.CollectorName) bool {
	if w.snap.Server.Unreachable {
		return true
	}
	st, ok := w.snap.Collectors[collector]
	return ok && (st.Stale || st.Error != "")
}

// hostRates returns the current host rates, or nil.
func (w *window) hostRates() *snapshot.HostRates {
	if w.rates == nil {
		return nil
	}
	return w.rates.Host
}

// hostFigures is the evidence line with run queue and idle CPU, or "".
func (w *window) hostFigures() string {
	h, hr := w.snap.Host, w.hostRates()
	if h == nil || h.Remote || hr == nil || hr.CPU.Total() == 0 {
		return ""
	}
	cpus := ""
	if h.NumCPU > 0 {
		cpus = fmt.Sprintf(" on %d CPUs", h.NumCPU)
	}
	return fmt.Sprintf("host: run queue %d%s, blocked %d, CPU idle %.0f %% (user %.0f %%, sys %.0f %%, iowait %.0f %%)",
		h.ProcsRunning, cpus, h.ProcsBlocked, hr.CPU.Idle, hr.CPU.User, hr.CPU.System, hr.CPU.IOWait)
}

// stallFigure is the kernel's own measure of how much work waited for a
// resource over the last interval, which a run queue or a disk's busy share
// only suggest: "pressure stall: some task waited for I/O 38 % of the last
// 1.0 s, all of them 4 %"; "" when the source has none.
func (w *window) stallFigure(what string, of func(*snapshot.PressureRates) snapshot.StallRate) string {
	if w.rates == nil || w.rates.Pressure == nil {
		return ""
	}
	r := of(w.rates.Pressure)
	return fmt.Sprintf("pressure stall: some task waited for %s %.0f %% of the last %s, all of them %.0f %%",
		what, r.Some, fmtDuration(time.Duration(w.rates.Interval*float64(time.Second))), r.Full)
}

func cpuStall(p *snapshot.PressureRates) snapshot.StallRate { return p.CPU }
func ioStall(p *snapshot.PressureRates) snapshot.StallRate  { return p.IO }

// variable returns a server variable, trimmed; ok is false when it is absent.
func (w *window) variable(name string) (string, bool) {
	v, ok := w.snap.Variables[name]
	return strings.TrimSpace(v), ok
}

// innodbNA says why InnoDB status cannot be read on this source, or "".
func innodbNA(w *window) string {
	if r := w.unavailable(snapshot.CollectorInnoDB); r != "" {
		return r
	}
	if w.snap.InnoDB != nil || w.failedThisTick(snapshot.CollectorInnoDB) {
		return ""
	}
	return "no SHOW ENGINE INNODB STATUS in this source"
}
