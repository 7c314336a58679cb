package report

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// writeHTML writes the postmortem: one self-contained page (inline CSS and
// SVG, no script, no request: its Content-Security-Policy forbids any), in
// sections that print one per page.
func writeHTML(w io.Writer, r Report) error {
	return htmlPage.Execute(w, newHTMLView(r))
}

// htmlView is what the template reads: the report, and what the HTML derives
// from it for drawing only (no number the JSON does not carry).
type htmlView struct {
	Report
	Summary []summaryLine
	Charts  []htmlChart
	Lanes   template.HTML
	Blocked []blockedAt
	Picture template.HTML
}

type summaryLine struct{ Label, Text string }

type htmlChart struct {
	Name, Title string
	Legend      []legendEntry
	SVG         template.HTML
}

// blockedAt is a lock finding's root blockers at its most severe moment.
type blockedAt struct {
	ID       string
	Blockers []snapshot.RootBlocker
}

func newHTMLView(r Report) htmlView {
	v := htmlView{Report: r, Summary: summaryOf(r), Picture: template.HTML(r.Picture)}
	if r.Timeline != nil {
		v.Charts = chartsOf(r.Timeline, markersOf(r))
		if len(r.Timeline.Bands) > 0 {
			v.Lanes = lanesSVG(r.Timeline, markersOf(r))
		}
	}
	for _, e := range r.Findings {
		if len(e.RootBlockers) > 0 {
			v.Blocked = append(v.Blocked, blockedAt{ID: e.ID, Blockers: e.RootBlockers})
		}
	}
	return v
}

// summaryOf says in plain words what the top of the page says: the root
// cause, when it began, how long it lasted and what ended it.
func summaryOf(r Report) []summaryLine {
	var out []summaryLine
	for _, o := range r.Onsets {
		if o.Rank == 1 {
			out = append(out, summaryLine{"Changed first", onsetLine(o)})
		}
	}
	for _, rc := range r.RootCauses {
		e := episodeOf(r, rc.ID, rc.First)
		line := strings.TrimPrefix(rc.Line, "root cause: ")
		if line == "" {
			line = rc.Title
		}
		out = append(out, summaryLine{"Root cause", line})
		if e != nil {
			out = append(out, summaryLine{"Onset", fmt.Sprintf("%s, lasted %s; %s", e.From.Format(time.DateTime), lasted(e), endOf(r, e))})
		}
	}
	if len(r.RootCauses) == 0 {
		if e := worstEpisode(r); e != nil {
			out = append(out, summaryLine{"Most severe", fmt.Sprintf("%s (%s) from %s, lasted %s; %s", e.Title, e.ID, e.From.Format(time.DateTime), lasted(e), endOf(r, e))})
		} else {
			out = append(out, summaryLine{"Findings", "none: nothing the rules judge wrong in this span"})
		}
	}
	if r.Normal != nil && !r.Normal.Ready {
		out = append(out, summaryLine{"Own normal", fmt.Sprintf("no baseline yet (%.0f min of history): nothing judged against this server's normal", r.Normal.HistoryMinutes)})
	}
	if r.Baseline != nil {
		out = append(out, summaryLine{"Compared with", fmt.Sprintf("%s to %s (%d frames)", r.Baseline.From.Format(time.DateTime), r.Baseline.To.Format(time.DateTime), r.Baseline.Frames)})
		for i, c := range r.Changes {
			if i == 5 {
				break
			}
			out = append(out, summaryLine{"Changed", changeText(c.Name, c.What, c.Before, c.After, c.Factor)})
		}
	}
	return out
}

func episodeOf(r Report, id string, at time.Time) *Episode {
	for i := range r.Findings {
		e := &r.Findings[i]
		if e.ID == id && !at.Before(e.From) && !at.After(e.To) {
			return e
		}
	}
	for i := range r.Findings {
		if r.Findings[i].ID == id {
			return &r.Findings[i]
		}
	}
	return nil
}

func worstEpisode(r Report) *Episode {
	var w *Episode
	for i := range r.Findings {
		if e := &r.Findings[i]; w == nil || e.Severity > w.Severity {
			w = e
		}
	}
	return w
}

func lasted(e *Episode) string {
	return e.To.Sub(e.From).Round(time.Second).String()
}

// endOf says what ended an episode: it cleared, or it stood to the end of
// the source.
func endOf(r Report, e *Episode) string {
	if e.To.Before(r.To) {
		return "cleared at " + e.To.Format(time.TimeOnly)
	}
	return "still standing when the source ends"
}

func changeText(name, what string, before, after any, factor *float64) string {
	s := name
	if what != "" {
		s += " (" + what + ")"
	}
	s += fmt.Sprintf(": %v → %v", before, after)
	if factor != nil && !math.IsInf(*factor, 0) {
		s += fmt.Sprintf(" (×%.3g)", *factor)
	}
	return s
}

// markersOf marks on every chart what changed first (the onsets of rank 1)
// and the root causes' onsets.
func markersOf(r Report) []marker {
	var out []marker
	for _, o := range r.Onsets {
		if o.Rank == 1 {
			out = append(out, marker{At: o.At, Label: "onset: " + o.Cause})
		}
	}
	for _, rc := range r.RootCauses {
		if e := episodeOf(r, rc.ID, rc.First); e != nil {
			out = append(out, marker{At: e.From, Label: "onset: " + rc.ID})
		}
	}
	return out
}

// chartsOf groups the timeline's series by chart, in the charts' order,
// leaving out a stacked chart's layers that were zero throughout.
func chartsOf(tl *Timeline, marks []marker) []htmlChart {
	var out []htmlChart
	for _, c := range timelineCharts {
		d := chartData{tl: tl, chart: c, markers: marks}
		for _, s := range tl.Series {
			if s.Chart == c.name && (!c.stacked || anyAbove(s.Values, 0)) {
				d.series = append(d.series, s)
			}
		}
		if len(d.series) == 0 {
			continue
		}
		out = append(out, htmlChart{Name: c.name, Title: c.title, Legend: d.legend(), SVG: d.svg()})
	}
	return out
}

func anyAbove(vs []*float64, floor float64) bool {
	for _, v := range vs {
		if v != nil && *v > floor {
			return true
		}
	}
	return false
}
