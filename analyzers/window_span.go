package analyzers

import (
	"github.com/mytop-go/mytop-go/snapshot"
	"time"
)

// spanCounters are the status counters rules compare across the window, not
// only between the last two frames: the query cache's yield over a minute and
// the history list's growth minute over minute. The engine asks the pipeline
// to keep them in thinned older frames (KeptStatus).
var spanCounters = []string{
	qcHits, qcInserts, qcPrunes, "Com_select",
	historyName,
	psCount,
	raPages, raEvicted,
}

// span is a counter's change between an older frame and the current one.
type span struct {
	delta   float64
	elapsed time.Duration
}

// perSec is the change per second over the span.
func (s span) perSec() float64 {
	if s.elapsed <= 0 {
		return 0
	}
	return s.delta / s.elapsed.Seconds()
}

// spanOver returns how status name changed over the last d of the window,
// starting no earlier than the latest restart or fall of name (counterStart).
// ok is false when the window holds less than min of usable history.
func (w *window) spanOver(name string, d, min time.Duration) (span, bool) {
	start := w.counterStart(name, func(f *snapshot.Frame) bool { return w.snap.Time.Sub(f.Snapshot.Time) <= d })
	if start == nil {
		return span{}, false
	}
	a, ok1 := start.Snapshot.StatusFloat(name)
	b, ok2 := w.snap.StatusFloat(name)
	el := w.snap.Time.Sub(start.Snapshot.Time)
	if !ok1 || !ok2 || el < min {
		return span{}, false
	}
	return span{delta: b - a, elapsed: el}, true
}

// counterStart is the one way rules find where a counter's change over a
// span may start: the oldest frame that within(f) accepts, carries name, and
// from which no later frame starts another server lifetime (newLifetimeAt)
// or shows name fallen (FLUSH STATUS). The frame a counter restarts at may
// start the span; nothing older may. nil when only the current frame is
// left. name "" asks only for the same lifetime.
func (w *window) counterStart(name string, within func(*snapshot.Frame) bool) *snapshot.Frame {
	var start *snapshot.Frame
	for i := len(w.frames) - 1; i >= 0; i-- {
		f := w.frames[i]
		if f == nil || f.Snapshot == nil || !within(f) {
			break
		}
		if _, ok := f.Snapshot.StatusFloat(name); ok || name == "" {
			start = f
		}
		if i == 0 || w.frames[i-1] == nil || w.frames[i-1].Snapshot == nil || newLifetimeAt(w.frames[i-1], f) ||
			fell(w.frames[i-1].Snapshot, f.Snapshot, name) {
			break
		}
	}
	if start == w.cur {
		return nil
	}
	return start
}

// newLifetimeAt reports whether f is the first frame of another server
// lifetime than prev's: marked by its rates (Uptime went down), or read from
// the two samples (a restart while the server was unreachable, whose Uptime
// had passed the last one read by the time it answered).
func newLifetimeAt(prev, f *snapshot.Frame) bool {
	if f.Rates != nil && f.Rates.Reset && f.Rates.Status == nil {
		return true
	}
	return snapshot.NewLifetime(prev.Snapshot, f.Snapshot)
}

// fell reports a counter that went down from a to b (FLUSH STATUS).
func fell(a, b *snapshot.Snapshot, name string) bool {
	if name == "" {
		return false
	}
	x, ok1 := a.StatusFloat(name)
	y, ok2 := b.StatusFloat(name)
	return ok1 && ok2 && y < x
}
