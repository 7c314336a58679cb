package report

import (
	"fmt"
	"slices"

	"github.com/mytop-go/mytop-go/snapshot"
)

// onsetAcc gathers the episodes the baseline opened (JSON onsets[]): each
// episode's causes as its last frame ranked them, episodes in time order.
type onsetAcc struct {
	done []snapshot.Onset
	cur  []snapshot.Onset
	// normal is the last frame's word on its baseline.
	normal *snapshot.Normal
}

func (a *onsetAcc) add(f *snapshot.Frame) {
	if f.Normal != nil {
		a.normal = f.Normal
	}
	if len(f.Onsets) == 0 {
		a.done = append(a.done, a.cur...)
		a.cur = nil
		return
	}
	if len(a.cur) > 0 && !sameEpisode(a.cur, f.Onsets) {
		a.done = append(a.done, a.cur...)
	}
	a.cur = f.Onsets
}

// sameEpisode: a later frame of an episode keeps its first onsets' times.
func sameEpisode(was, now []snapshot.Onset) bool {
	for _, o := range was {
		if slices.ContainsFunc(now, func(n snapshot.Onset) bool { return n.Cause == o.Cause && n.At.Equal(o.At) }) {
			return true
		}
	}
	return false
}

// list is never nil.
func (a *onsetAcc) list() []snapshot.Onset {
	out := append(slices.Clone(a.done), a.cur...)
	if out == nil {
		out = []snapshot.Onset{}
	}
	return out
}

// onsetLine is the ROOT CAUSE line of an episode's first cause: what
// changed first, and when.
func onsetLine(o snapshot.Onset) string {
	return fmt.Sprintf("%s (onset %s, %s)", o.Title, clockOf(o.At), o.Cause)
}

// chronicWords say a finding is how the server runs, not news.
func chronicWords(e Episode) string {
	if !e.Chronic {
		return ""
	}
	return " (chronic, steady since before " + e.Since.Format("15:04") + ")"
}

// chronicFirstSeen notes a frame's chronic marks on the finding's episode.
func (e *Episode) chronicFrom(f *snapshot.Finding) {
	if !f.Chronic {
		return
	}
	if !e.Chronic || f.ChronicSince.Before(e.Since) {
		e.Since = f.ChronicSince
	}
	e.Chronic = true
}

// newFirst orders the findings new first, chronic after, each group by
// onset as before.
func newFirst(es []Episode) {
	slices.SortStableFunc(es, func(a, b Episode) int {
		switch {
		case a.Chronic == b.Chronic:
			return 0
		case !a.Chronic:
			return -1
		}
		return 1
	})
	for i := range es {
		if !es[i].Chronic {
			es[i].Since = es[i].From
		}
	}
}
