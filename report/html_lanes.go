package report

import (
	"fmt"
	"html/template"
	"math"
	"strings"
	"time"
)

// laneH is the height of one finding's lane.
const laneH = 16.0

// lanesSVG draws the findings over the shared time axis, one lane per
// finding ID (first seen first), each episode a bar coloured by severity:
// what the background bands of the other charts stand for.
func lanesSVG(tl *Timeline, marks []marker) template.HTML {
	var ids []string
	lane := map[string]int{}
	for _, s := range tl.Bands {
		if _, ok := lane[s.ID]; !ok {
			lane[s.ID] = len(ids)
			ids = append(ids, s.ID)
		}
	}
	h := padT + laneH*float64(len(ids)) + padB
	lp := 190.0 // room for the IDs
	x := func(t time.Time) float64 {
		n := float64(max(1, tl.Points-1))
		return lp + (chartW-lp-padR)*(t.Sub(tl.Start).Seconds()/tl.Step)/n
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart lanes" data-chart="findings" viewBox="0 0 %g %g" role="img" aria-label="Findings over time">`, chartW, h)
	for i, id := range ids {
		y := padT + laneH*float64(i)
		fmt.Fprintf(&b, `<text class="tick" x="%g" y="%.1f" text-anchor="end">%s</text>`, lp-6, y+laneH*0.7, template.HTMLEscapeString(id))
		fmt.Fprintf(&b, `<line class="grid" x1="%g" x2="%g" y1="%.1f" y2="%.1f"/>`, lp, chartW-padR, y+laneH, y+laneH)
	}
	for _, s := range tl.Bands {
		y := padT + laneH*float64(lane[s.ID]) + 2
		x0, x1 := x(s.From), x(s.To)
		fmt.Fprintf(&b, `<rect class="band lane" data-finding="%s" data-severity="%s" x="%.1f" y="%.1f" width="%.1f" height="%g" fill="%s"><title>%s %s, %s to %s</title></rect>`,
			s.ID, s.Severity, x0, y, math.Max(2, x1-x0), laneH-4, bandColors[s.Severity], s.Severity, s.ID, s.From.Format(time.TimeOnly), s.To.Format(time.TimeOnly))
	}
	for _, m := range marks {
		mx := x(m.At)
		fmt.Fprintf(&b, `<line class="marker" x1="%.1f" x2="%.1f" y1="%g" y2="%.1f"><title>%s</title></line>`, mx, mx, padT, h-padB, template.HTMLEscapeString(m.Label))
	}
	for _, f := range []float64{0, 0.5, 1} {
		i := f * float64(max(0, tl.Points-1))
		t := tl.Start.Add(time.Duration(i * tl.Step * float64(time.Second)))
		anchor := map[float64]string{0: "start", 0.5: "middle", 1: "end"}[f]
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%g" text-anchor="%s">%s</text>`, x(t), h-6, anchor, t.Format(time.TimeOnly))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}
