package analyzers

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/mytop-go/mytop-go/baseline"
	"github.com/mytop-go/mytop-go/snapshot"
)

// Engine runs every rule over a window of frames and applies onset/clear
// persistence. It keeps per-rule state between calls; when the window it is
// given does not continue the previous call (a seek, a new source) it replays
// the window to rebuild that state, so a replay reaches the live verdict as
// long as the episode started inside the window.
type Engine struct {
	cfg    Config
	rules  []rule
	tracks []track
	// counts is keyed by Frame.Seq, not by pointer, so a frame the pipeline
	// has since slimmed (processlist dropped) is not kept alive by the cache.
	counts map[int]procCounts
	// fps memoises statement fingerprints for the windows (window.go).
	fps  map[string]string
	last *snapshot.Frame
	// Results for last, returned again if the same frame is evaluated twice.
	lastFindings []snapshot.Finding
	lastNA       map[string]string
	// span is the sampling interval last measured, used for a frame that
	// has no rates of its own (the first one, or the first after a gap).
	span time.Duration
	// normal is the server's own baseline (normal.go).
	normal *baseline.Tracker
}

// NewEngine returns an engine with every rule and cfg's thresholds.
func NewEngine(cfg Config) *Engine { return newEngineWith(cfg, allRules()) }

func newEngineWith(cfg Config, rules []rule) *Engine {
	return &Engine{cfg: cfg, rules: rules, tracks: make([]track, len(rules)),
		counts: map[int]procCounts{}, fps: map[string]string{}, normal: baseline.New(baseline.DefaultConfig())}
}

// Evaluate returns the findings standing at the window's last frame, most
// severe first then oldest onset first, and the rules that cannot run on this
// source with the reason.
func (e *Engine) Evaluate(window []*snapshot.Frame) ([]snapshot.Finding, map[string]string) {
	window = trimInvalid(window)
	if len(window) == 0 {
		return nil, nil
	}
	cur := window[len(window)-1]
	if cur == e.last {
		return slices.Clone(e.lastFindings), maps.Clone(e.lastNA)
	}
	if !e.continues(window) {
		e.prime(window[:len(window)-1])
	}
	findings, na := e.step(window)
	e.last, e.lastFindings, e.lastNA = cur, findings, na
	return slices.Clone(findings), maps.Clone(na)
}

// trimInvalid keeps the suffix of frames that carry a snapshot.
func trimInvalid(window []*snapshot.Frame) []*snapshot.Frame {
	for i := len(window) - 1; i >= 0; i-- {
		if window[i] == nil || window[i].Snapshot == nil {
			return window[i+1:]
		}
	}
	return window
}

func (e *Engine) continues(window []*snapshot.Frame) bool {
	return e.last != nil && len(window) >= 2 && window[len(window)-2] == e.last
}

// prime rebuilds the per-rule state by stepping through earlier frames.
func (e *Engine) prime(earlier []*snapshot.Frame) {
	clear(e.tracks)
	clear(e.counts)
	e.span = 0
	for i := range earlier {
		e.step(earlier[:i+1])
	}
}

// step evaluates every rule at the window's last frame and advances state.
func (e *Engine) step(frames []*snapshot.Frame) ([]snapshot.Finding, map[string]string) {
	e.forgetBefore(frames[0])
	w := newWindow(frames, e.counts, &e.cfg)
	w.fps = e.fps
	span := e.frameSpan(frames[len(frames)-1])
	var findings []snapshot.Finding
	na := map[string]string{}
	for i, r := range e.rules {
		v := safeCheck(r, w, &e.cfg)
		if v.notApplicable != "" {
			na[r.id] = v.notApplicable
		}
		observe := e.tracks[i].observe
		if r.held {
			observe = e.tracks[i].observeHeld
		}
		if f := observe(v, w.snap.Time, span, e.cfg.persistence(r.id)); f != nil {
			f.ID = r.id
			findings = append(findings, *f)
		}
	}
	linkCauses(w, findings)
	sortFindings(findings)
	return findings, na
}

// defaultSpan is the interval assumed for a frame before any interval has
// been measured: the default --interval.
const defaultSpan = time.Second

// frameSpan is the stretch of time a frame's signal stands for: the interval
// since the sample before it (its rates' interval). A frame without rates
// (the first, or the first after a gap the monitor could not sample across)
// stands for the last interval measured, never for the whole gap.
func (e *Engine) frameSpan(f *snapshot.Frame) time.Duration {
	if f.Rates != nil && f.Rates.Interval > 0 {
		e.span = time.Duration(f.Rates.Interval * float64(time.Second))
	}
	if e.span <= 0 {
		return defaultSpan
	}
	return e.span
}

// forgetBefore drops cached counts of frames that left the window.
func (e *Engine) forgetBefore(oldest *snapshot.Frame) {
	for seq := range e.counts {
		if seq < oldest.Seq {
			delete(e.counts, seq)
		}
	}
}

// safeCheck runs one rule; a rule that panics on input nobody foresaw is
// reported as not applicable instead of taking the monitor down mid-incident.
func safeCheck(r rule, w *window, c *Config) (v verdict) {
	defer func() {
		if p := recover(); p != nil {
			v = notApplicable(fmt.Sprintf("rule failed on this frame: %v", p))
		}
	}()
	return attributeMaintenance(w, r.id, r.check(w, c)) // a table rebuild names itself (maintenance_cause.go)
}

// sortFindings orders most severe first, then by onset, then by ID.
func sortFindings(fs []snapshot.Finding) {
	slices.SortStableFunc(fs, func(a, b snapshot.Finding) int {
		if a.Severity != b.Severity {
			return int(b.Severity) - int(a.Severity)
		}
		if c := a.Since.Compare(b.Since); c != 0 {
			return c
		}
		if a.ID < b.ID {
			return -1
		}
		if a.ID > b.ID {
			return 1
		}
		return 0
	})
}

// track is one rule's hysteresis state, in time held (frame timestamps), so
// that a replay or an import at another interval reaches the same verdict.
type track struct {
	active   bool
	since    time.Time // onset of the standing episode
	run      bool      // the signal is present in the current run of frames
	runStart time.Time // time of the run's first frame with the signal
	runSpan  time.Duration
	lastSeen time.Time // newest frame with the signal
	last     *snapshot.Finding
	held     []heldSample // a held rate's frames over its hold
}

// observe folds one raw verdict in and returns the standing finding, if any.
// A run's signal is held from the start of its first frame's interval
// (runStart - runSpan) to at; it raises once that reaches p.RaiseAfter, and
// an active finding clears once the signal has been gone p.ClearAfter. While
// an active episode has a shorter gap, the last raw finding stands. A quarter
// of a frame's span is allowed for sampling jitter (a tick of 0.998 s).
func (t *track) observe(v verdict, at time.Time, span time.Duration, p Persistence) *snapshot.Finding {
	slack := span / 4
	switch {
	case v.notApplicable != "":
		*t = track{}
	case v.finding != nil:
		if !t.run {
			t.run, t.runStart, t.runSpan = true, at, span
		}
		t.lastSeen = at
		t.last = v.finding
		held := at.Sub(t.runStart) + t.runSpan
		if !t.active && held+slack >= p.RaiseAfter {
			t.active, t.since = true, t.runStart
		}
	default:
		t.run = false
		if t.active && at.Sub(t.lastSeen)+slack >= max(p.ClearAfter, span/2) {
			*t = track{}
		}
	}
	if !t.active {
		return nil
	}
	f := *t.last
	f.Since = t.since
	return &f
}

// DetailFrames is how many newest frames rules read beyond their counters:
// thread rows over the sighting window, and the frame before the current one
// for scan speeds. The pipeline thins older window frames to bound memory.
func (e *Engine) DetailFrames() int { return max(e.cfg.SightingWindow, 1) + 1 }

// LoadFrames is how many newest frames rules read the database load of:
// the minute a finding's share of the load is measured over (loadShare).
// The pipeline drops the load of older frames: a rule that reads it further
// back raises this.
func (e *Engine) LoadFrames() int { return loadShareFrames }

// RateFrames is how many newest frames rules read every status value and
// rate of: the current one (and the one before, to be safe). KeptRates are
// the rates read from older frames: the buffer pool's free-page waits over
// the sighting window (buffer_pool_wait_free, checkpoint_age_high).
// DetailStatus are the status values read from the older detail frames
// besides KeptStatus: the checkpoint age's climb (checkpoint_age_high), the
// row lock waits held over the onset (row_lock_waits), the writes and scans
// over the sighting window (full_scan_counted), the scans begun and the rows
// they read over 5 s (full_scan_storm). A rule that reads another
// value or rate from a frame before the current one adds it here;
// TestThinnedRatesSameFindings replays the captures in testdata both ways.
func (e *Engine) RateFrames() int     { return 2 }
func (e *Engine) KeptRates() []string { return []string{bpWaitFree} }
func (e *Engine) DetailStatus() []string {
	return append(e.KeptStatus(), "Innodb_checkpoint_age", "Innodb_row_lock_current_waits",
		"Com_update", "Com_delete", "Handler_read_rnd_next", "Select_scan")
}

// KeptStatus are the status counters rules read from older frames: Uptime,
// to see a restart anywhere in the window (server_restarted), the
// counters rules compare over minutes (spanCounters, including the history
// list length), the refusal counters connection_errors sums over its
// lookback, the buffer pool's free pages and Memory_used over
// mysqld_memory_runaway's span, and the Galera cluster size
// (galera_cluster_shrunk).
func (e *Engine) KeptStatus() []string {
	kept := append([]string{"Uptime"}, spanCounters...)
	kept = append(kept, deadlockKeptStatus...)
	kept = append(kept, connRefusalKeptStatus...)
	kept = append(kept, connKeptStatus...)
	kept = append(kept, memoryKeptStatus...)
	return append(kept, galeraKeptStatus...)
}
