package report

import (
	"math"
	"sort"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Timeline is the report's figures over time: the charts of the HTML
// postmortem, given in the JSON too so the HTML adds no numbers of its own.
// Point i of every series is the mean of the samples in
// [Start+i·Step, Start+(i+1)·Step); null where the source had none (a gap,
// never interpolated).
type Timeline struct {
	Start  time.Time    `json:"start"`
	Step   float64      `json:"step_s"`
	Points int          `json:"points"`
	Series []TimeSeries `json:"series"`
	// Bands are the findings' episodes, drawn behind every chart.
	Bands []snapshot.Span `json:"bands"`
	// Worst is the moment the most severe findings stood together (the
	// dashboard picture's moment); zero when no finding stood.
	Worst time.Time `json:"worst,omitempty"`
}

// TimeSeries is one line (or one layer of a stacked chart).
type TimeSeries struct {
	Chart  string     `json:"chart"`
	Name   string     `json:"name"`
	Unit   string     `json:"unit,omitempty"`
	Values []*float64 `json:"values"`
}

// maxPoints bounds a series: a day's recording is drawn in 5-minute steps
// rather than 86,400 points no chart can show.
const maxPoints = 720

// timelineAcc keeps each series' raw samples until the span, and so the
// step, is known.
type timelineAcc struct {
	index  map[seriesKey]int
	keys   []seriesKey
	points [][]timedValue
	first  time.Time
	last   time.Time
	worst  float64
	worstT time.Time
}

type seriesKey struct{ chart, name, unit string }

type timedValue struct {
	t time.Time
	v float64
}

func (a *timelineAcc) add(f *snapshot.Frame) {
	t := f.Time()
	if a.first.IsZero() {
		a.first = t
	}
	a.last = t
	for _, c := range timelineCharts {
		c.values(f, func(name, unit string, v float64) { a.put(seriesKey{c.name, name, unit}, t, v) })
	}
	if w := weight(f.Findings); w > a.worst {
		a.worst, a.worstT = w, t
	}
}

// weight ranks a moment by its findings: one critical outweighs any number
// of warnings, one warning any number of infos.
func weight(fs []snapshot.Finding) float64 {
	w := 0.0
	for _, f := range fs {
		w += math.Pow(100, float64(f.Severity))
	}
	return w
}

func (a *timelineAcc) put(k seriesKey, t time.Time, v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return
	}
	if a.index == nil {
		a.index = map[seriesKey]int{}
	}
	i, ok := a.index[k]
	if !ok {
		i = len(a.keys)
		a.index[k] = i
		a.keys = append(a.keys, k)
		a.points = append(a.points, nil)
	}
	a.points[i] = append(a.points[i], timedValue{t, v})
}

// timeline buckets every series on one axis; bands are the report's episodes.
func (a *timelineAcc) timeline(bands []snapshot.Span) *Timeline {
	if a.first.IsZero() {
		return nil
	}
	span := a.last.Sub(a.first).Seconds()
	step := math.Max(1, math.Ceil((span+1)/maxPoints))
	n := int(span/step) + 1
	tl := &Timeline{Start: a.first.UTC(), Step: step, Points: n, Bands: bands, Worst: a.worstT}
	order := make([]int, len(a.keys))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return chartRank(a.keys[order[x]].chart) < chartRank(a.keys[order[y]].chart) })
	cited := citedCounters(bands)
	for _, i := range order {
		k := a.keys[i]
		if k.chart == "evidence" && !cited[k.name] {
			continue
		}
		tl.Series = append(tl.Series, TimeSeries{Chart: k.chart, Name: k.name, Unit: k.unit, Values: bucket(a.points[i], a.first, step, n)})
	}
	return tl
}

func bucket(pts []timedValue, start time.Time, step float64, n int) []*float64 {
	sum := make([]float64, n)
	cnt := make([]int, n)
	for _, p := range pts {
		i := min(n-1, max(0, int(p.t.Sub(start).Seconds()/step)))
		sum[i] += p.v
		cnt[i]++
	}
	out := make([]*float64, n)
	for i := range out {
		if cnt[i] > 0 {
			v := math.Round(sum[i]/float64(cnt[i])*1000) / 1000
			out[i] = &v
		}
	}
	return out
}

func chartRank(name string) int {
	for i, c := range timelineCharts {
		if c.name == name {
			return i
		}
	}
	return len(timelineCharts)
}

// index is the point of the timeline that holds t.
func (tl *Timeline) index(t time.Time) int {
	return int(math.Floor(t.Sub(tl.Start).Seconds() / tl.Step))
}
