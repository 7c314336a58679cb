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
// starting no earlier than the latest restart or FLUSH STATUS. ok is false
// when the window holds less than min of usable history.
func (w *window) spanOver(name string, d, min time.Duration) (span, bool) {
	start := w.spanStart(name, d)
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

// spanStart is the oldest frame within d of the current one that carries name
// with no counter reset between it and now.
func (w *window) spanStart(name string, d time.Duration) *snapshot.Frame {
	var start *snapshot.Frame
	for i := len(w.frames) - 1; i >= 0; i-- {
		f := w.frames[i]
		if f == nil || f.Snapshot == nil || w.snap.Time.Sub(f.Snapshot.Time) > d {
			break
		}
		if _, ok := f.Snapshot.StatusFloat(name); ok {
			start = f
		}
		// Rates.Reset on f means f's counters start afresh: f itself may
		// start the span, nothing older may.
		if f.Rates != nil && f.Rates.Reset {
			break
		}
	}
	if start == w.cur {
		return nil
	}
	return start
}
