package baseline

import (
	"fmt"
	"math"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// judgeSignals sets each signal's recent value (the time-weighted mean of
// the short window) and whether it stands out of its band. A departure is
// dated from the oldest frame of the short window that was itself out the
// same way, at the middle of the interval it stands for (frames without a
// reading between): a step is dated within half an interval, not when the
// mean caught up with it.
func (t *Tracker) judgeSignals() {
	for i, g := range t.sigs {
		if !g.curOK || g.n == 0 {
			g.out, g.inBand = 0, true
			continue
		}
		dir := g.judge(g.cur)
		if dir != 0 && g.per != 0 && t.numeratorOut(g) != dir {
			dir = 0
		}
		if dir != 0 && dir != g.out {
			g.outStart = t.departure(i, g, dir)
		}
		g.out = dir
		g.inBand = g.inBand || dir == 0
	}
}

// recentValues sets each signal's recent value and folds it into the
// bucket's extremes, during the warm-up too, so the normal's bursts are
// known when judging starts.
func (t *Tracker) recentValues() {
	for i, g := range t.sigs {
		sum, w := 0.0, 0.0
		for _, r := range t.recent {
			if i < len(r.vals) && r.vals[i] == r.vals[i] {
				sum += r.vals[i] * r.span
				w += r.span
			}
		}
		g.curOK = w > 0
		if !g.curOK {
			continue
		}
		g.cur = sum / w
		if g.accHi != g.accHi || g.cur > g.accHi {
			g.accHi = g.cur
		}
		if g.accLo != g.accLo || g.cur < g.accLo {
			g.accLo = g.cur
		}
	}
}

// numeratorOut is where ratio g's numerator stands now.
func (t *Tracker) numeratorOut(g *signal) direction {
	num := t.sigs[fixedIndex[g.per]]
	if !num.curOK {
		return 0
	}
	return num.judge(num.cur)
}

func (t *Tracker) departure(i int, g *signal, dir direction) float64 {
	last := t.recent[len(t.recent)-1]
	start := last.at - last.span/2
	for k := len(t.recent) - 1; k >= 0; k-- {
		r := t.recent[k]
		if i >= len(r.vals) {
			break // the signal was not yet known
		}
		// A frame without a reading (a host reading carried, a read that
		// missed its tick) says nothing: the departure goes on past it.
		if r.vals[i] != r.vals[i] {
			continue
		}
		if g.judgeLoose(r.vals[i]) != dir {
			break
		}
		start = r.at - r.span/2
	}
	return start
}

// judgeLoose is judge at half the distance: one frame of a step that is
// averaged with the frames before it.
func (g *signal) judgeLoose(x float64) direction {
	d := x - g.med
	if math.Abs(d) < g.floor/2 || math.Abs(d) < zOut/2*g.band() {
		return 0
	}
	if d < 0 {
		return down
	}
	return up
}

// noteOf is the baseline's line for the screen.
func noteOf(n *snapshot.Normal, fromHours bool, at time.Time) string {
	if fromHours {
		return fmt.Sprintf("baseline: %s %s of earlier weeks (%.0f min of its own)", at.Weekday().String()[:3],
			at.Format("15:00"), math.Floor(n.HistoryMinutes))
	}
	if !n.Ready {
		return fmt.Sprintf("no baseline yet (%.0f min of history)", math.Floor(n.HistoryMinutes))
	}
	s := fmt.Sprintf("baseline: %.0f min of normal", math.Floor(n.HistoryMinutes))
	if n.Frozen {
		s += ", frozen during the episode"
	}
	return s
}
