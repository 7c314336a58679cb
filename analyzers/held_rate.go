package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A held rate is judged over the hold's span, not frame by frame: a rule
// whose rate must hold N seconds raises once, over the last N seconds, at
// least three quarters of the time was above its line. One second's dip (a tick that
// straddled two bursts, a sample delayed by a busy host) no longer starts the
// hold again, and a rate hovering around its line but above it on average
// raises within its hold. While a long hold runs, the finding stands at info
// once the signal has held heldInfoAfter, saying how long it has held, so
// the DBA sees the rate well before the warning is due.

// heldShare is the share of the hold's span the signal must cover: three
// quarters, so one dip in four seconds keeps a hold, while a rate flapping
// across its line second by second (at it on average) does not raise. A
// run of signal breaks once more than the rest is without it.
const heldShare = 0.75

// heldInfoAfter is how long a held rate's signal must hold before it stands
// at info while its longer hold runs: the engine's default persistence, so
// a one-off statement's second of spill or one typo's refusal shows nothing,
// and a rule whose hold is no longer than this has no info stage.
const heldInfoAfter = 3 * time.Second

// heldSample is one frame's signal, standing for the interval before at.
type heldSample struct {
	at   time.Time
	span time.Duration
	on   bool
}

// heldWindow is the span a held rate is judged over: its hold, and at least
// four intervals, so that a hold of three ticks too keeps through one dip.
func heldWindow(hold, span time.Duration) time.Duration { return max(hold, 4*span) }

// observeHeld is observe for a rule that holds a rate.
func (t *track) observeHeld(v verdict, at time.Time, span time.Duration, p Persistence) *snapshot.Finding {
	slack := span / 4
	if v.notApplicable != "" {
		*t = track{}
		return nil
	}
	on := v.finding != nil
	win := heldWindow(p.RaiseAfter, span)
	t.remember(heldSample{at: at, span: span, on: on}, win)
	if on {
		if !t.run {
			t.run, t.runStart, t.runSpan = true, at, span
		}
		t.lastSeen, t.last = at, v.finding
	}
	gone := at.Sub(t.lastSeen)+slack >= max(p.ClearAfter, span/2)
	switch {
	case t.active:
		if !on && gone {
			*t = track{}
		}
	case on:
		held := at.Sub(t.runStart) + t.runSpan
		if held+slack >= p.RaiseAfter && (p.RaiseAfter <= span+slack || t.covered(at, win, true, time.Time{}) >= heldShare) {
			t.active, t.since = true, t.runStart
		}
	case t.run && (gone || t.covered(at, win, false, t.runStart) > 1-heldShare):
		t.run, t.last = false, nil
	}
	switch {
	case t.active:
		f := *t.last
		f.Since = t.since
		return &f
	case t.run && t.last != nil && at.Sub(t.lastSeen) <= span+slack:
		// Shown while the signal stands, through one dip; a run that
		// lingers on after its burst says nothing.
		held := at.Sub(t.runStart) + t.runSpan
		if p.RaiseAfter > heldInfoAfter && held+slack >= heldInfoAfter {
			return waiting(t.last, t.runStart, held, p.RaiseAfter)
		}
	}
	return nil
}

// remember keeps the samples of the newest d (and one older, for its span).
func (t *track) remember(s heldSample, d time.Duration) {
	t.held = append(t.held, s)
	drop := 0
	for drop < len(t.held)-1 && s.at.Sub(t.held[drop+1].at) >= d {
		drop++
	}
	t.held = t.held[drop:]
}

// covered is the part of the newest d before at that frames with the signal
// (on) or without it (!on) stand for, counting frames from since on: a run's
// dips are those inside it, not the quiet frames before it began (a first
// frame has no rates to judge). A fiftieth of d absorbs ticks' jitter (0.998
// s apart), not a missed frame.
func (t *track) covered(at time.Time, d time.Duration, on bool, since time.Time) float64 {
	if d <= 0 {
		return 1
	}
	from := at.Add(-d)
	var sum time.Duration
	for _, s := range t.held {
		if s.on != on || s.at.Before(since) {
			continue
		}
		start := s.at.Add(-s.span)
		if start.Before(from) {
			start = from
		}
		if s.at.After(start) {
			sum += s.at.Sub(start)
		}
	}
	if on {
		sum += d / 50
	} else {
		sum -= d / 50
	}
	return min(float64(sum)/float64(d), 1)
}

// waiting is the raw finding as it stands while its hold runs: at info, its
// onset the hold's, with how long it has held of how long it must.
func waiting(raw *snapshot.Finding, since time.Time, held, need time.Duration) *snapshot.Finding {
	f := *raw
	f.Since = since
	if f.Severity <= snapshot.Info {
		return &f
	}
	line := fmt.Sprintf("held %.0f s of the %.0f s it must hold (three quarters of that time above its line) before "+
		"it is raised as a %s", held.Seconds(), need.Seconds(), f.Severity)
	f.Evidence = append([]string{line}, f.Evidence...)
	f.Severity = snapshot.Info
	return &f
}
