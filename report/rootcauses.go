package report

import (
	"slices"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// RootCause is one finding that caused others somewhere in the report's
// range (JSON root_causes[]): what to fix first, the threads to act on, and
// the findings it caused.
type RootCause struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Threads []int64  `json:"threads"`
	Effects []string `json:"effects"`
	// Line is the cause in plain words, as the findings panel shows it.
	Line     string            `json:"line"`
	Severity snapshot.Severity `json:"severity"`
	First    time.Time         `json:"first_seen"`
}

// maxCauseThreads bounds the threads a root cause lists.
const maxCauseThreads = 20

// rootCauseAcc gathers the root causes of every frame, one entry per ID,
// keeping the words of its most severe (then latest) frame.
type rootCauseAcc struct {
	byID  map[string]*RootCause
	order []string
}

func (a *rootCauseAcc) add(f *snapshot.Frame) {
	for _, rc := range infer.RootCauses(f.Findings) {
		if a.byID == nil {
			a.byID = map[string]*RootCause{}
		}
		e := a.byID[rc.ID]
		if e == nil {
			e = &RootCause{ID: rc.ID, Severity: -1, First: f.Time()}
			a.byID[rc.ID] = e
			a.order = append(a.order, rc.ID)
		}
		if rc.Severity >= e.Severity {
			e.Severity, e.Title, e.Line = rc.Severity, rc.Title, rc.Line()
		}
		for _, t := range rc.Threads {
			if len(e.Threads) < maxCauseThreads && !slices.Contains(e.Threads, t) {
				e.Threads = append(e.Threads, t)
			}
		}
		for _, id := range rc.Effects {
			if !slices.Contains(e.Effects, id) {
				e.Effects = append(e.Effects, id)
			}
		}
	}
}

// list is most severe first, then by first sighting; never nil.
func (a *rootCauseAcc) list() []RootCause {
	out := make([]RootCause, 0, len(a.order))
	for _, id := range a.order {
		rc := *a.byID[id]
		if rc.Threads == nil {
			rc.Threads = []int64{}
		}
		out = append(out, rc)
	}
	slices.SortStableFunc(out, func(x, y RootCause) int { return int(y.Severity) - int(x.Severity) })
	return out
}

// causedBy adds a frame's links to an episode, once each.
func (e *Episode) causedBy(f *snapshot.Finding) {
	for _, c := range f.CausedBy {
		if !slices.Contains(e.CausedBy, c) {
			e.CausedBy = append(e.CausedBy, c)
		}
	}
}
