package report

import (
	"fmt"
	"html/template"
	"math"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The charts share one time axis and one size, chosen to fit an A4 or Letter
// page printed in portrait (about 180 mm of width at 96 dpi is 680 px).
const (
	chartW, chartH   = 680.0, 170.0
	padL, padR       = 52.0, 8.0
	padT, padB       = 8.0, 22.0
	plotW, plotH     = chartW - padL - padR, chartH - padT - padB
	maxLegendEntries = 8
)

// seriesColors are told apart in colour and in print (greyscale) alike.
var seriesColors = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22", "#393b79", "#ad494a"}

var bandColors = map[snapshot.Severity]string{snapshot.Info: "#9ecae1", snapshot.Warning: "#fdd49e", snapshot.Critical: "#fc9272"}

// chartData is one chart ready to draw.
type chartData struct {
	tl      *Timeline
	chart   timelineChart
	series  []TimeSeries
	markers []marker
}

// marker is a vertical line at a moment: the root cause's onset, an onset.
type marker struct {
	At    time.Time
	Label string
}

func (c chartData) x(i float64) float64 {
	n := float64(max(1, c.tl.Points-1))
	return padL + plotW*i/n
}

func (c chartData) xAt(t time.Time) float64 {
	return c.x(t.Sub(c.tl.Start).Seconds() / c.tl.Step)
}

// svg draws the chart: bands behind, then the axes, the series (stacked
// layers as areas, others as lines broken at gaps), the markers and a legend.
func (c chartData) svg() template.HTML {
	top := c.top()
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" data-chart="%s" viewBox="0 0 %g %g" role="img" aria-label="%s">`, c.chart.name, chartW, chartH, template.HTMLEscapeString(c.chart.title))
	c.bands(&b)
	c.axes(&b, top)
	if c.chart.stacked {
		c.areas(&b, top)
	} else {
		c.lines(&b, top)
	}
	for _, m := range c.markers {
		x := c.xAt(m.At)
		fmt.Fprintf(&b, `<line class="marker" x1="%.1f" x2="%.1f" y1="%g" y2="%g"><title>%s</title></line>`, x, x, padT, padT+plotH, template.HTMLEscapeString(m.Label))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// bands shades each stretch of time by the most severe finding standing in
// it (overlaid translucent bands of many findings would turn to mud); which
// finding is which is the lanes chart's (lanesSVG).
func (c chartData) bands(b *strings.Builder) {
	worst := worstPerPoint(c.tl)
	for i := 0; i < len(worst); {
		j := i
		for j < len(worst) && worst[j] == worst[i] {
			j++
		}
		if worst[i] >= 0 {
			sev := snapshot.Severity(worst[i])
			x0, x1 := c.x(float64(i)-0.5), c.x(float64(j)-0.5)
			x0, x1 = math.Max(padL, x0), math.Min(padL+plotW, x1)
			fmt.Fprintf(b, `<rect class="band" data-severity="%s" x="%.1f" y="%g" width="%.1f" height="%g" fill="%s"/>`,
				sev, x0, padT, math.Max(1.5, x1-x0), plotH, bandColors[sev])
		}
		i = j
	}
}

// worstPerPoint is, for each point of the timeline, the highest severity of
// the findings standing then, or -1.
func worstPerPoint(tl *Timeline) []int {
	w := make([]int, tl.Points)
	for i := range w {
		w[i] = -1
	}
	for _, s := range tl.Bands {
		i0, i1 := tl.index(s.From), tl.index(s.To)
		for i := max(0, i0); i <= min(tl.Points-1, i1); i++ {
			w[i] = max(w[i], int(s.Severity))
		}
	}
	return w
}

// top is the y axis' upper end: the highest value (or stacked sum), rounded
// up to a 1-2-5 step; percentages end at 100 unless they exceed it.
func (c chartData) top() float64 {
	m := 0.0
	for i := 0; i < c.tl.Points; i++ {
		sum := 0.0
		for _, s := range c.series {
			if v := s.Values[i]; v != nil {
				if c.chart.stacked {
					sum += *v
				} else {
					m = math.Max(m, *v)
				}
			}
		}
		m = math.Max(m, sum)
	}
	if c.chart.unit == "%" && m <= 105 {
		return 100
	}
	return niceCeil(m)
}

func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, f := range []float64{1, 2, 5, 10} {
		if f*p >= v {
			return f * p
		}
	}
	return 10 * p
}

func (c chartData) y(v, top float64) float64 { return padT + plotH*(1-v/top) }

func (c chartData) axes(b *strings.Builder, top float64) {
	fmt.Fprintf(b, `<rect class="frame" x="%g" y="%g" width="%g" height="%g"/>`, padL, padT, plotW, plotH)
	for _, f := range []float64{0, 0.5, 1} {
		y := c.y(top*f, top)
		fmt.Fprintf(b, `<line class="grid" x1="%g" x2="%g" y1="%.1f" y2="%.1f"/><text class="tick" x="%g" y="%.1f" text-anchor="end">%s</text>`,
			padL, padL+plotW, y, y, padL-4, y+3, shortNum(top*f))
	}
	fmt.Fprintf(b, `<text class="unit" x="4" y="%g">%s</text>`, padT+10, template.HTMLEscapeString(c.chart.unit))
	for _, f := range []float64{0, 0.25, 0.5, 0.75, 1} {
		i := f * float64(max(0, c.tl.Points-1))
		t := c.tl.Start.Add(time.Duration(i * c.tl.Step * float64(time.Second)))
		anchor := map[float64]string{0: "start", 1: "end"}[f]
		if anchor == "" {
			anchor = "middle"
		}
		fmt.Fprintf(b, `<text class="tick" x="%.1f" y="%g" text-anchor="%s">%s</text>`, c.x(i), chartH-6, anchor, t.Format(time.TimeOnly))
	}
}

// lines draws each series as a path whose pen lifts at every null point.
func (c chartData) lines(b *strings.Builder, top float64) {
	for k, s := range c.series {
		var d strings.Builder
		pen := false
		for i, v := range s.Values {
			if v == nil {
				pen = false
				continue
			}
			cmd := "L"
			if !pen {
				cmd = "M"
			}
			fmt.Fprintf(&d, "%s%.1f %.1f", cmd, c.x(float64(i)), c.y(*v, top))
			pen = true
		}
		fmt.Fprintf(b, `<path class="series line" data-series="%s" d="%s" stroke="%s"/>`, template.HTMLEscapeString(s.Name), d.String(), seriesColors[k%len(seriesColors)])
	}
}

// areas stacks the layers; a point where every layer is null is a gap in
// each of them, drawn as a break in the area.
func (c chartData) areas(b *strings.Builder, top float64) {
	base := make([]float64, c.tl.Points)
	for k, s := range c.series {
		var d strings.Builder
		for _, run := range runsOf(s.Values) {
			upper := make([]float64, 0, run[1]-run[0])
			for i := run[0]; i < run[1]; i++ {
				upper = append(upper, base[i]+*s.Values[i])
			}
			fmt.Fprintf(&d, "M%.1f %.1f", c.x(float64(run[0])), c.y(upper[0], top))
			for i := run[0]; i < run[1]; i++ {
				fmt.Fprintf(&d, "L%.1f %.1f", c.x(float64(i)), c.y(upper[i-run[0]], top))
			}
			for i := run[1] - 1; i >= run[0]; i-- {
				fmt.Fprintf(&d, "L%.1f %.1f", c.x(float64(i)), c.y(base[i], top))
			}
			d.WriteString("Z")
			for i := run[0]; i < run[1]; i++ {
				base[i] = upper[i-run[0]]
			}
		}
		fmt.Fprintf(b, `<path class="series area" data-series="%s" d="%s" fill="%s"/>`, template.HTMLEscapeString(s.Name), d.String(), seriesColors[k%len(seriesColors)])
	}
}

// runsOf returns the [start, end) index runs of non-null values.
func runsOf(vs []*float64) [][2]int {
	var out [][2]int
	start := -1
	for i := 0; i <= len(vs); i++ {
		if i < len(vs) && vs[i] != nil {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, [2]int{start, i})
			start = -1
		}
	}
	return out
}

// legend names the series with their colours, at most maxLegendEntries.
func (c chartData) legend() []legendEntry {
	var out []legendEntry
	for k, s := range c.series {
		if k == maxLegendEntries {
			out = append(out, legendEntry{Name: fmt.Sprintf("and %d more", len(c.series)-k)})
			break
		}
		out = append(out, legendEntry{Name: s.Name, Color: seriesColors[k%len(seriesColors)]})
	}
	return out
}

type legendEntry struct{ Name, Color string }

func shortNum(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e9:
		return fmt.Sprintf("%.3gG", v/1e9)
	case a >= 1e6:
		return fmt.Sprintf("%.3gM", v/1e6)
	case a >= 1e4:
		return fmt.Sprintf("%.3gk", v/1e3)
	}
	return fmt.Sprintf("%.3g", v)
}
