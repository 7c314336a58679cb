package baseline

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// classState is one cause class's hold, in time (unix seconds).
type classState struct {
	holding  bool
	runStart float64
	runSpan  float64
}

// episode is one departure from the normal: from the first cause's onset
// until every signature has been gone CloseAfter, or until a cause not yet
// its own confirms a wave after the last of its own held (a flush storm
// 20 s after a convoy's backlog drained is not the convoy's; the same
// cause flickering back is).
type episode struct {
	opened   float64
	lastHeld float64
	onsets   []*onsetState
}

type onsetState struct {
	class    int
	lastHeld float64
	// confirmed is when the cause was first confirmed: what the DBA was
	// told, and when.
	confirmed float64
	onset     snapshot.Onset
	// effect: told at its peak as another cause's effect (told.effect).
	effect bool
}

// wave is how close two causes must be confirmed to count as starting
// together; then the one that moved further (weighted by how directly its
// class names a root) ranks first, else the earlier one does: what changed
// first. A cause confirmed a wave after another ranks after it, however far
// it moved and however early its signals' departure dates it: the clients'
// backlog flooding in once a lock convoy's holder ends (a workload spike
// dated from the sessions that piled up at the convoy's start, four times
// the normal's queries at its peak) is the convoy's aftermath, not what
// changed first.
const wave = 10.0

// updateEpisode advances each class's hold, opens, extends or closes the
// episode, and puts its onsets, ranked, on the frame.
func (t *Tracker) updateEpisode(f *snapshot.Frame, at time.Time, span float64, routine []Routine) {
	now := float64(at.UnixNano()) / 1e9
	var ms []moved
	for i := range classes {
		c, st := &classes[i], &t.classes[i]
		var ok bool
		if t.ready {
			ms, ok = c.matches(t.sigs, ms)
		}
		if !ok {
			st.holding = false
			continue
		}
		if !st.holding {
			st.holding, st.runStart, st.runSpan = true, now, span
		}
		if now-st.runStart+st.runSpan+span/10 >= c.holdOf(t.cfg, ms) {
			t.confirm(i, f, ms, now, routine)
		}
	}
	// Only an episode taints: a signature that holds a moment and goes (the
	// normal's own bursts) stays in the baseline, or its envelope would
	// shrink to the quiet stretches and every burst become news.
	if t.ep != nil && now-t.ep.opened < t.cfg.AcceptAfter.Seconds() {
		t.tainted = true
	}
	// The episode lasts while a cause of its own still holds confirmed; a
	// class that holds a moment without confirming (the noise of a busy
	// normal) neither extends it nor keeps it open.
	if t.ep != nil && now-t.ep.lastHeld >= t.cfg.CloseAfter.Seconds() {
		t.ep = nil
	}
	f.Onsets = t.onsets()
}

// confirm records class i as a cause of the open episode (opening it),
// dated from the earliest departure of its signals.
func (t *Tracker) confirm(i int, f *snapshot.Frame, ms []moved, now float64, routine []Routine) {
	if t.ep != nil && now-t.ep.lastHeld >= wave && !t.ep.has(i) {
		t.ep = nil // a new cause after the last one settled: news of its own
	}
	if t.ep == nil {
		t.ep = &episode{opened: now, lastHeld: now}
	}
	t.ep.lastHeld = now
	var os *onsetState
	for _, o := range t.ep.onsets {
		// A cause that had stopped holding and starts again is a new onset.
		if o.class == i && now-o.lastHeld < t.cfg.CloseAfter.Seconds() {
			os = o
		}
	}
	if os != nil {
		os.lastHeld = now
	}
	c := &classes[i]
	tl := &told{f: f, ms: ms, all: t.sigs, routine: routine, weight: c.weight, before: t.ep.causesBefore(i)}
	c.tell(tl)
	sc := score(ms) * tl.weight
	if os == nil {
		start := onsetStart(ms, now, t.cfg)
		os = &onsetState{class: i, lastHeld: now, confirmed: now,
			onset: snapshot.Onset{At: unixTime(start).In(f.Time().Location()), Cause: c.cause}}
		t.ep.onsets = append(t.ep.onsets, os)
		t.untaint(start)
	}
	if sc < os.onset.Score {
		return // keep what it said at its peak
	}
	os.effect = tl.effect
	o := &os.onset
	o.Score = math.Round(sc*10) / 10
	o.Title, o.Evidence, o.Advice = tl.title, tl.evidence, tl.advice
	o.Threads, o.Statements = tl.threads, tl.statements
	o.Signals = signalsOf(ms)
}

// causesBefore are the causes the episode named before class i first
// confirmed, or in the same frame (all of them, while i is not among them
// yet).
func (e *episode) causesBefore(i int) []string {
	first := math.Inf(1)
	for _, o := range e.onsets {
		if o.class == i {
			first = min(first, o.confirmed)
		}
	}
	var out []string
	for _, o := range e.onsets {
		if o.class != i && o.confirmed <= first {
			out = append(out, classes[o.class].cause)
		}
	}
	return out
}

// has says class i is among the episode's causes.
func (e *episode) has(i int) bool {
	return slices.ContainsFunc(e.onsets, func(o *onsetState) bool { return o.class == i })
}

// untaint leaves out of the baseline the buckets closed since an onset
// (the pending seconds before it was confirmed): the incident's first
// seconds are not normal.
func (t *Tracker) untaint(start float64) {
	from := int64(start) / bucketSpan
	for s := range nBuckets {
		if t.stamps[s] >= from {
			t.admitted[s] = false
		}
	}
}

// onsets are the episode's causes, ranked.
func (t *Tracker) onsets() []snapshot.Onset {
	if t.ep == nil || len(t.ep.onsets) == 0 {
		return nil
	}
	states := slices.Clone(t.ep.onsets)
	slices.SortStableFunc(states, func(a, b *onsetState) int {
		if c := cmp.Compare(a.confirmed, b.confirmed); c != 0 {
			return c
		}
		return a.onset.At.Compare(b.onset.At)
	})
	waves := make(map[*onsetState]int, len(states))
	w, start := 0, states[0].confirmed
	for _, o := range states {
		if o.confirmed-start > wave {
			w, start = w+1, o.confirmed
		}
		waves[o] = w
	}
	slices.SortStableFunc(states, func(a, b *onsetState) int {
		if wa, wb := waves[a], waves[b]; wa != wb {
			return wa - wb
		}
		if a.effect != b.effect {
			if a.effect {
				return 1
			}
			return -1
		}
		if a.onset.Score != b.onset.Score {
			return -cmp.Compare(a.onset.Score, b.onset.Score)
		}
		return a.onset.At.Compare(b.onset.At)
	})
	out := make([]snapshot.Onset, len(states))
	for i, o := range states {
		out[i] = o.onset
		out[i].Rank = i + 1
	}
	return out
}

// maxOnsetSignals bounds the signals an onset lists, furthest moved first.
const maxOnsetSignals = 8

func signalsOf(ms []moved) []snapshot.OnsetSignal {
	sorted := slices.Clone(ms)
	slices.SortFunc(sorted, func(a, b moved) int {
		za, zb := math.Abs(a.z), math.Abs(b.z)
		switch {
		case za > zb:
			return -1
		case za < zb:
			return 1
		}
		return 0
	})
	out := make([]snapshot.OnsetSignal, 0, min(len(sorted), maxOnsetSignals))
	for _, x := range sorted[:min(len(sorted), maxOnsetSignals)] {
		out = append(out, snapshot.OnsetSignal{Name: x.g.name, Before: round3(x.g.med), After: round3(x.g.cur)})
	}
	return out
}

// round3 keeps three significant digits, so reports stay readable and
// golden files stable.
func round3(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	p := math.Pow(10, 2-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*p) / p
}

func unixTime(s float64) time.Time {
	sec, frac := math.Modf(s)
	return time.Unix(int64(sec), int64(math.Round(frac*1e3))*1e6)
}

// onsetStart dates an onset from the first departure of its moved signals,
// but no earlier than the short window and the hold before its first key
// left its band: a related signal out since long before (the threads
// running of a lock convoy, when the clients' catch-up after it confirms a
// workload spike) belongs to the cause that moved it first, and dating the
// new cause from it would put it in that cause's wave.
func onsetStart(ms []moved, now float64, cfg Config) float64 {
	start, key := now, now
	for _, x := range ms {
		if x.loose {
			continue
		}
		start = min(start, x.g.outStart)
		if x.key {
			key = min(key, x.g.outStart)
		}
	}
	return max(start, key-(cfg.Short+cfg.Hold).Seconds())
}
