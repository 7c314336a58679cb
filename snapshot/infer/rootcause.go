package infer

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// RootCause is a finding that causes others in the same frame and has no
// cause itself: the one to act on first.
type RootCause struct {
	ID      string  `json:"id"`
	Title   string  `json:"title"`
	Threads []int64 `json:"threads"`
	// Effects are the IDs of the findings it causes, directly or through
	// another finding.
	Effects []string `json:"effects"`
	// EffectTitles are the effects' titles, for the one-line summary.
	EffectTitles []string          `json:"-"`
	Severity     snapshot.Severity `json:"-"`
}

// RootCauses returns the roots of the findings' CausedBy links, most severe
// first, each with every finding downstream of it.
func RootCauses(fs []snapshot.Finding) []RootCause {
	byID := make(map[string]*snapshot.Finding, len(fs))
	effects := map[string][]string{}
	for i := range fs {
		byID[fs[i].ID] = &fs[i]
		for _, c := range fs[i].CausedBy {
			effects[c] = append(effects[c], fs[i].ID)
		}
	}
	var out []RootCause
	for i := range fs {
		f := &fs[i]
		if len(f.CausedBy) > 0 || len(effects[f.ID]) == 0 {
			continue
		}
		rc := RootCause{ID: f.ID, Title: f.Title, Threads: slices.Clone(f.Threads), Severity: f.Severity}
		for _, e := range downstream(f.ID, effects) {
			rc.Effects = append(rc.Effects, e)
			if ef := byID[e]; ef != nil {
				rc.EffectTitles = append(rc.EffectTitles, ef.Title)
			}
		}
		out = append(out, rc)
	}
	slices.SortStableFunc(out, func(a, b RootCause) int { return int(b.Severity) - int(a.Severity) })
	return out
}

// downstream lists every finding reached from id, breadth first, once each.
func downstream(id string, effects map[string][]string) []string {
	seen := map[string]bool{id: true}
	var out []string
	queue := []string{id}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, e := range effects[cur] {
			if !seen[e] {
				seen[e] = true
				out = append(out, e)
				queue = append(queue, e)
			}
		}
	}
	return out
}

// maxLineThreads caps the threads named in the one-line summary.
const maxLineThreads = 3

// Line is the root cause in plain words, with the threads to act on:
// "root cause: <cause>; it causes: <effects>; act on thread 12".
func (r RootCause) Line() string {
	var b strings.Builder
	b.WriteString("root cause: ")
	b.WriteString(r.Title)
	if len(r.EffectTitles) > 0 {
		b.WriteString("; behind it: ")
		b.WriteString(strings.Join(r.EffectTitles, "; "))
	}
	if n := len(r.Threads); n > 0 {
		ids := make([]string, 0, maxLineThreads)
		for _, t := range r.Threads[:min(n, maxLineThreads)] {
			ids = append(ids, fmt.Sprint(t))
		}
		word := "thread"
		if n > 1 {
			word = "threads"
		}
		fmt.Fprintf(&b, "; act on %s %s", word, strings.Join(ids, ", "))
		if n > maxLineThreads {
			fmt.Fprintf(&b, " (+%d)", n-maxLineThreads)
		}
	}
	return b.String()
}
