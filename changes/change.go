package changes

import (
	"math"
	"sort"
	"time"
)

// Kind says what moved; the JSON contract's `kind`.
type Kind string

// Kinds of change.
const (
	KindVariable  Kind = "variable"
	KindStatus    Kind = "status"
	KindStatement Kind = "statement"
	KindMix       Kind = "mix"
	KindLoad      Kind = "load"
)

// Change is one thing that moved between the two windows. Before and After
// are numbers (a rate per second, a share in %, a per-call figure) except for
// variables, whose values are text.
type Change struct {
	Kind Kind   `json:"kind"`
	Name string `json:"name"`
	// What names the figure compared when Name alone does not ("calls/s",
	// "latency per call (s)", "share of active sessions (%)").
	What   string   `json:"what,omitempty"`
	Before any      `json:"before"`
	After  any      `json:"after"`
	Factor *float64 `json:"factor,omitempty"`
	// When is when a variable was first seen with its new value.
	When  time.Time `json:"when,omitzero"`
	score float64
}

// Scores rank kinds that have no factor above every factor's: a new
// statement or a changed setting is the first thing to look at.
const (
	scoreNewStatement = 1000
	scoreVariable     = 500
)

// factorScore ranks a move by its size either way: ×8 and ÷8 rank alike.
func factorScore(f float64) float64 { return math.Abs(math.Log2(f)) }

func ratio(before, after float64) *float64 {
	if before <= 0 {
		return nil
	}
	f := after / before
	return &f
}

// sortBiggestFirst orders changes by score, then kind and name for a stable
// listing.
func sortBiggestFirst(cs []Change) {
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].score != cs[j].score {
			return cs[i].score > cs[j].score
		}
		if cs[i].Kind != cs[j].Kind {
			return cs[i].Kind < cs[j].Kind
		}
		return cs[i].Name < cs[j].Name
	})
}

// round keeps figures readable in JSON.
func round(v float64) float64 {
	switch {
	case v == 0 || math.IsInf(v, 0) || math.IsNaN(v):
		return v
	case math.Abs(v) >= 100:
		return math.Round(v)
	default:
		p := math.Pow(10, 3-math.Ceil(math.Log10(math.Abs(v))))
		return math.Round(v*p) / p
	}
}
