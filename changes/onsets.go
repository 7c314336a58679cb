package changes

import (
	"fmt"
	"io"
	"slices"

	"github.com/mytop-go/mytop-go/snapshot"
)

// onsetList gathers the episodes the baseline opened over a window: each
// cause once (by cause and onset time), in the words of the last frame that
// carried it, so its rank is the episode's final ranking.
type onsetList struct {
	list    []snapshot.Onset
	episode []int // the episode of each, counted from 0
	open    bool  // the last frame carried onsets
}

func (l *onsetList) add(os []snapshot.Onset) {
	if len(os) == 0 {
		l.open = false
		return
	}
	ep := 0
	if len(l.episode) > 0 {
		ep = l.episode[len(l.episode)-1]
		if !l.open {
			ep++
		}
	}
	l.open = true
	for _, o := range os {
		i := slices.IndexFunc(l.list, func(x snapshot.Onset) bool { return x.Cause == o.Cause && x.At.Equal(o.At) })
		if i < 0 {
			l.list, l.episode = append(l.list, o), append(l.episode, ep)
		} else {
			l.list[i] = o
		}
	}
}

// Onsets are what changed against the server's own normal within the
// window, episodes in time order, each episode's causes by rank; never nil.
func (w *Window) Onsets() []snapshot.Onset {
	type ranked struct {
		o  snapshot.Onset
		ep int
	}
	rs := make([]ranked, len(w.onsets.list))
	for i, o := range w.onsets.list {
		rs[i] = ranked{o, w.onsets.episode[i]}
	}
	slices.SortStableFunc(rs, func(a, b ranked) int {
		if a.ep != b.ep {
			return a.ep - b.ep
		}
		return a.o.Rank - b.o.Rank
	})
	out := make([]snapshot.Onset, len(rs))
	for i, r := range rs {
		out[i] = r.o
	}
	return out
}

// WriteOnsets prints the onsets, one line each with its first evidence.
func WriteOnsets(w io.Writer, os []snapshot.Onset) error {
	for _, o := range os {
		line := fmt.Sprintf("#%d %s %-18s %s", o.Rank, o.At.Format("15:04:05"), o.Cause, o.Title)
		if len(o.Evidence) > 0 {
			line += " — " + o.Evidence[0]
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}
