package analyzers

import (
	"github.com/mytop-go/mytop-go/snapshot"
	"time"
)

// heldFor reports whether ok holds on every frame of the newest stretch of
// the window that covers d of time, each frame standing for the interval
// since the one before it (as the engine's persistence reads them). A rule
// that must prove a duration from a gauge itself uses it instead of counting
// frames, so a capture sampled every 10 s is judged like a live run at 1 s.
func (w *window) heldFor(d time.Duration, ok func(*snapshot.Frame) bool) bool {
	cur := w.cur.Snapshot.Time
	for i := len(w.frames) - 1; i >= 0; i-- {
		f := w.frames[i]
		if !ok(f) {
			return false
		}
		span := defaultSpan
		if f.Rates != nil && f.Rates.Interval > 0 {
			span = time.Duration(f.Rates.Interval * float64(time.Second))
		}
		if cur.Sub(f.Snapshot.Time)+span+span/4 >= d {
			return true
		}
	}
	return false
}

// Persistence is the onset/clear hysteresis of one rule, in time held: how
// long the raw signal must hold before the rule raises, and how long it must
// be gone before the finding clears. It is judged by the frames' own
// timestamps, so a replay or an import sampled every 10 s keeps the same
// verdicts as a live run at 1 s. Rules declare it with persistFor.
type Persistence struct {
	RaiseAfter time.Duration // signal held this long before raising (0: at once)
	ClearAfter time.Duration // signal gone this long before clearing
}

// persistence returns the hysteresis for rule id.
func (c *Config) persistence(id string) Persistence {
	p, ok := c.Persistence[id]
	if !ok {
		p = c.DefaultPersistence
	}
	return Persistence{RaiseAfter: max(p.RaiseAfter, 0), ClearAfter: max(p.ClearAfter, 0)}
}

// rulesPersistence is the persistence each rule declares, by ID; rules that
// declare none keep DefaultPersistence.
func rulesPersistence() map[string]Persistence {
	out := map[string]Persistence{}
	for _, r := range allRules() {
		if r.persist != (Persistence{}) {
			out[r.id] = r.persist
		}
	}
	return out
}

// persistFor is a rule's hysteresis given in seconds of signal: how long it
// must hold before the rule raises, and how long it must be gone before the
// finding clears. Each frame's signal covers the interval since the frame
// before it, so persistFor(3*time.Second, ...) raises on the third 1-s frame
// of a run, and on the first frame of a capture sampled every 10 s; 0 (or
// anything up to one interval) raises on the first frame with the signal.
func persistFor(onset, clear time.Duration) Persistence {
	return Persistence{RaiseAfter: onset, ClearAfter: clear}
}
