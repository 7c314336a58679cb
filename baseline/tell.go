package baseline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// told is what a class says of its onset, from the frame that confirmed it
// and the signals that moved.
type told struct {
	f  *snapshot.Frame
	ms []moved
	// all is every signal, for a teller that looks beyond its signature.
	all     []*signal
	routine []Routine
	// before are the causes the episode named before this one, or with it.
	before []string
	// effect: the teller found the class the effect of another cause
	// standing (locks behind a slowed link): it ranks below the causes of
	// its wave however far it moved, since effects often move further.
	effect bool
	// weight starts as the class's and a teller may change it (a disk
	// saturated by another process names the root itself).
	weight     float64
	title      string
	evidence   []string
	advice     string
	threads    []int64
	statements []string
}

// after says the episode named cause before this one.
func (c *told) after(cause string) bool { return contains(c.before, cause) }

// moves lists every moved signal as "rows read/s 1200 -> 45000 (x37)",
// furthest first.
func (c *told) moves() {
	for _, s := range signalsOf(c.ms) {
		g := c.find(s.Name)
		c.evidence = append(c.evidence, fmt.Sprintf("%s %s -> %s%s", s.Name, fmtValue(s.Before, g.unit),
			fmtValue(s.After, g.unit), factor(s.Before, s.After)))
	}
}

func (c *told) find(name string) *signal {
	for _, x := range c.ms {
		if x.g.name == name {
			return x.g
		}
	}
	return &signal{}
}

// factor is " (x37)" or " (x0.3)" where the baseline is not near zero.
func factor(before, after float64) string {
	if before <= 0 || after < 0 {
		return ""
	}
	r := after / before
	if r >= 10 {
		return fmt.Sprintf(" (x%.0f)", r)
	}
	return fmt.Sprintf(" (x%.1f)", r)
}

// movedOf is the moved signal of kind k furthest out, nil if none.
func (c *told) movedOf(k kind) *moved {
	var best *moved
	for i := range c.ms {
		x := &c.ms[i]
		if x.g.kind == k && (best == nil || abs(x.z) > abs(best.z)) {
			best = x
		}
	}
	return best
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// namesOf are the moved names of kind k without their prefix.
func (c *told) namesOf(k kind, prefix string) []string {
	var out []string
	for _, x := range c.ms {
		if x.g.kind == k {
			out = append(out, strings.TrimPrefix(x.g.name, prefix))
		}
	}
	return out
}

// busiestOthers names the processes outside mysqld that used the most CPU.
func busiestOthers(f *snapshot.Frame) string {
	h := f.Snapshot.Host
	if h == nil || len(h.Busiest) == 0 {
		return ""
	}
	var parts []string
	for _, p := range h.Busiest[:min(3, len(h.Busiest))] {
		parts = append(parts, fmt.Sprintf("%s (pid %d) %.1f CPUs", p.Name, p.PID, p.CPUs))
	}
	return strings.Join(parts, ", ")
}

// topStatements are the statements holding the most sessions of class cl in
// the frame's load.
func topStatements(f *snapshot.Frame, cl snapshot.WaitClass, n int) []string {
	if f.Load == nil {
		return nil
	}
	var ss []snapshot.LoadSlice
	for _, s := range f.Load.Slices {
		if s.By == snapshot.DimStatement && s.Name != snapshot.NoStatement && s.Classes[cl] > 0 {
			ss = append(ss, s)
		}
	}
	slices.SortStableFunc(ss, func(a, b snapshot.LoadSlice) int {
		switch {
		case a.Classes[cl] > b.Classes[cl]:
			return -1
		case a.Classes[cl] < b.Classes[cl]:
			return 1
		}
		return 0
	})
	var out []string
	for _, s := range ss[:min(n, len(ss))] {
		out = append(out, s.Name)
	}
	return out
}
