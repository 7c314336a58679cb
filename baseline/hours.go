package baseline

import (
	"time"
)

// hourNormal is a server's normal as last seen at one hour of the week:
// each signal's median and spread. A server that is busier on Monday at
// 9:00 than on Sunday night is compared, after a restart of the monitor,
// with its Mondays at 9:00 until it has a normal of its own again.
type hourNormal map[string][2]float64

// hourOfWeek is 0 for Sunday 00:00-00:59, in the frames' own time zone.
func hourOfWeek(t time.Time) int { return int(t.Weekday())*24 + t.Hour() }

// noteHour keeps the rolling normal as this hour's, once it is the
// tracker's own (never a copy of an earlier week's).
func (t *Tracker) noteHour(at time.Time) {
	if !t.ready || t.fromHours {
		return
	}
	hn := make(hourNormal, len(fixedSignals))
	for _, g := range t.sigs[:len(fixedSignals)] {
		if g.n > 0 {
			hn[g.name] = [2]float64{g.med, g.spread}
		}
	}
	t.hours[hourOfWeek(at)] = hn
}

// fromHour judges the fixed signals against this hour of earlier weeks
// while the tracker's own normal is warming up; the mix (statements,
// clients, tools) is not judged then, having no history of its own.
func (t *Tracker) fromHour(at time.Time) {
	t.fromHours = false
	if t.ready {
		return
	}
	hn, ok := t.hours[hourOfWeek(at)]
	if !ok {
		return
	}
	for _, g := range t.sigs[:len(fixedSignals)] {
		if v, ok := hn[g.name]; ok {
			g.med, g.spread, g.n = v[0], v[1], 1
		}
	}
	for _, g := range t.sigs[len(fixedSignals):] {
		g.n = 0
	}
	t.fromHours, t.ready = true, true
}
