package baseline

import (
	"math"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Tracker is one server's baseline and its open episode. It is fed every
// frame in order (Observe); it keeps no frame, only fixed-size rings.
type Tracker struct {
	cfg    Config
	sigs   []*signal
	byName map[string]int

	stamps   [nBuckets]int64
	admitted [nBuckets]bool
	bucket   int64 // the bucket being filled, 0 before the first frame
	// tainted: a cause was pending or an episode open during the bucket.
	tainted bool
	// filled: a frame fell in the bucket being filled.
	filled bool

	recent   []recentFrame
	prevHost *snapshot.Host
	// prevInnoDB is when the last frame's InnoDB status was read.
	prevInnoDB time.Time
	uptime     int64
	last       time.Time
	span       float64

	classes  []classState
	ep       *episode
	presence map[string]*presence
	// seen are the mix's names seen in frames whose mix is not judged, with
	// the buckets they were seen in (mix_seen.go).
	seen map[seenKey]seenSpan
	// toolSeen is when each routine tool was last sighted (unix seconds).
	toolSeen map[string]float64

	ready   bool
	history time.Duration
	oldest  time.Time
	// observed: a frame was observed since the tracker was made, reset or
	// restored (a restored baseline is kept across the first frame of a run).
	observed bool
	// hours is the normal as last seen at each hour of the week (persist.go).
	hours map[int]hourNormal
	// fromHours: the signals are judged against the same hour of earlier
	// weeks, during the warm-up.
	fromHours bool
	// loc is the frames' time zone, for the hour of the week.
	loc *time.Location

	scratch     []float64
	admittedIdx []int
	named       []named
}

// recentFrame is one frame's values, kept for the short window.
type recentFrame struct {
	at   float64 // unix seconds
	span float64
	vals []float64
}

// New returns an empty baseline.
func New(cfg Config) *Tracker {
	t := &Tracker{cfg: cfg}
	t.Reset()
	return t
}

// Reset forgets everything: a restart of the server, or a jump in the
// source, starts the normal afresh.
func (t *Tracker) Reset() {
	cfg, hours := t.cfg, t.hours
	*t = Tracker{cfg: cfg, byName: map[string]int{}, presence: map[string]*presence{},
		classes: make([]classState, len(classes)), hours: hours, loc: time.Local, seen: map[seenKey]seenSpan{},
		toolSeen: map[string]float64{}}
	if t.hours == nil {
		t.hours = map[int]hourNormal{}
	}
	for i := range t.stamps {
		t.stamps[i] = -1
	}
	for _, fs := range fixedSignals {
		t.add(fs.spec)
	}
}

func (t *Tracker) add(s spec) int {
	t.sigs = append(t.sigs, t.fresh(s))
	t.byName[s.name] = len(t.sigs) - 1
	return len(t.sigs) - 1
}

// fresh is a new signal. One that counts 0 when absent (a statement, a
// client, a tool first seen now) was 0 through the whole baseline: it is
// judged from this frame on, not after the next bucket closes; unless it
// was seen in frames whose mix was not judged, and then its history is
// unknown (mix_seen.go).
func (t *Tracker) fresh(s spec) *signal {
	g := newSignal(s)
	switch {
	case !s.zeroWhenAbsent || t.fromHours:
	case t.seenInWindow(s):
		g.unknownHistory()
	default:
		g.n = len(t.admittedIdx)
	}
	return g
}

// Observe judges one frame against the baseline, then learns from it: it
// sets f.Onsets and f.Normal and marks f.Findings chronic or new (new
// first). routine is the routine work the analyzers recognised in it.
func (t *Tracker) Observe(f *snapshot.Frame, routine []Routine) {
	if f == nil || f.Snapshot == nil || f.Snapshot.Server.Unreachable {
		return
	}
	if t.restarted(f) {
		t.Reset()
	}
	at := f.Time()
	t.loc = at.Location()
	span := t.frameSpan(f)
	vals := t.sample(f, routine, span)
	t.advance(at)
	t.accumulate(vals, span)
	t.pushRecent(at, span, vals)
	t.recentValues()
	if t.ready {
		t.judgeSignals()
	}
	t.updateEpisode(f, at, span, routine)
	t.markFindings(f)
	f.Normal = t.normal(at)
	t.prevHost = f.Snapshot.Host
	if read := innoDBReadAt(f.Snapshot.InnoDB); !read.IsZero() {
		t.prevInnoDB = read
	}
	t.last = at
	t.observed = true
}

// Observed says a frame was observed since the tracker was made, reset or
// restored.
func (t *Tracker) Observed() bool { return t.observed }

// restarted: the server's uptime went down, or the source went back in time.
func (t *Tracker) restarted(f *snapshot.Frame) bool {
	back := !t.last.IsZero() && f.Time().Before(t.last)
	up, ok := f.Snapshot.Uptime()
	was := t.uptime
	if ok {
		t.uptime = up
	}
	return back || (ok && was > 0 && up < was)
}

func (t *Tracker) frameSpan(f *snapshot.Frame) float64 {
	if f.Rates != nil && f.Rates.Interval > 0 {
		t.span = f.Rates.Interval
	}
	if t.span <= 0 {
		return 1
	}
	return t.span
}

// maxNamed bounds the signals that come by name (disks, interfaces, the
// mix, tools), so 5,000 sessions of ad-hoc statements cost a fixed amount.
const maxNamed = 160

// sample reads the frame's value of every signal, NaN where it says nothing.
func (t *Tracker) sample(f *snapshot.Frame, routine []Routine, span float64) []float64 {
	r := &reading{f: f, prevHost: t.prevHost, secs: span, prevInnoDB: t.prevInnoDB,
		hostCarried: f.Snapshot.Host != nil && snapshot.SameHostReading(t.prevHost, f.Snapshot.Host)}
	t.noteUnjudgedMix(f.Load, bucketOf(f.Time()))
	t.named = namedSignals(r, t.toolsRunning(routine, f.Time()), t.named[:0])
	for _, n := range t.named {
		if _, ok := t.byName[n.spec.name]; !ok {
			t.addNamed(n.spec)
		}
	}
	vals := make([]float64, len(t.sigs))
	for i := range vals {
		vals[i] = math.NaN()
	}
	for i, fs := range fixedSignals {
		if f.Rates == nil && fs.kind != kThreadsRunning {
			continue // a frame without rates says nothing of anything per second
		}
		if v, ok := fs.read(r); ok {
			vals[i] = v
		}
	}
	if f.Load != nil {
		mix := mixCounts(f.Load)
		for i, g := range t.sigs {
			if g.zeroWhenAbsent && (mix || g.kind == kRoutine) {
				vals[i] = 0
			}
		}
	}
	for _, n := range t.named {
		if i, ok := t.byName[n.spec.name]; ok {
			vals[i] = n.value
		}
	}
	return vals
}

// addNamed adds a signal that came by name; when the table is full, the
// least used name not standing out of its band gives its place.
func (t *Tracker) addNamed(s spec) {
	if len(t.sigs)-len(fixedSignals) < maxNamed {
		t.add(s)
		return
	}
	victim := -1
	for i := len(fixedSignals); i < len(t.sigs); i++ {
		g := t.sigs[i]
		if g.out == 0 && (victim < 0 || g.peak < t.sigs[victim].peak) {
			victim = i
		}
	}
	if victim < 0 {
		return
	}
	delete(t.byName, t.sigs[victim].name)
	t.sigs[victim] = t.fresh(s)
	t.byName[s.name] = victim
	for _, r := range t.recent {
		if victim < len(r.vals) {
			r.vals[victim] = math.NaN()
		}
	}
}

func (t *Tracker) pushRecent(at time.Time, span float64, vals []float64) {
	now := float64(at.UnixNano()) / 1e9
	keep := t.cfg.Short.Seconds()
	i := 0
	for i < len(t.recent) && t.recent[i].at <= now-keep {
		i++
	}
	t.recent = append(t.recent[:0], t.recent[i:]...)
	t.recent = append(t.recent, recentFrame{at: now, span: span, vals: vals})
}

// normal is the frame's word on its baseline.
func (t *Tracker) normal(at time.Time) *snapshot.Normal {
	n := &snapshot.Normal{Ready: t.ready, HistoryMinutes: math.Round(t.history.Minutes()*10) / 10,
		Since: t.oldest, Frozen: t.ep != nil}
	n.Note = noteOf(n, t.fromHours, at)
	return n
}
