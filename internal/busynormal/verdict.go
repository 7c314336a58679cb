package busynormal

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Bounds of a good verdict: the fault's cause named first within NameWithin
// of the injection, its onset dated within OnsetWithin of it.
const (
	NameWithin  = 10 * time.Second
	OnsetWithin = 5 * time.Second
)

// Verdict is what the monitor said of one injected fault.
type Verdict struct {
	Fault, Cause string
	Skipped      string
	// Named: the fault's cause was among the onsets of a frame between the
	// injection and the end of its recovery.
	Named bool
	// TimeToName is from the injection to the first frame naming the
	// cause; Rank is the cause's rank in that frame (1: named first);
	// OnsetError is its onset's time less the injection's.
	TimeToName time.Duration
	Rank       int
	OnsetError time.Duration
	// First is the rank-1 cause of the first frame with an onset after the
	// injection, and its title.
	First, FirstTitle string
	// Kept is the rank-1 cause of the last frame whose episode holds the
	// fault's cause: what the episode's ROOT CAUSE line says once it is
	// over (a report's), after the aftermath has moved everything else.
	Kept, KeptTitle string
	// NotChronic are findings that stood through the normal yet were not
	// marked chronic during the fault.
	NotChronic []string
}

// Good says whether the verdict meets the bounds, and if not, why.
func (v Verdict) Good() (bool, string) {
	switch {
	case v.Skipped != "":
		return true, ""
	case !v.Named:
		return false, fmt.Sprintf("%s never named (first cause named: %q %s)", v.Cause, v.First, v.FirstTitle)
	case v.Rank != 1:
		return false, fmt.Sprintf("%s named at rank %d after %s (first: %q %s)", v.Cause, v.Rank,
			v.TimeToName.Round(100*time.Millisecond), v.First, v.FirstTitle)
	case v.TimeToName > NameWithin:
		return false, fmt.Sprintf("%s named first only after %s", v.Cause, v.TimeToName.Round(100*time.Millisecond))
	case v.OnsetError > OnsetWithin || v.OnsetError < -OnsetWithin:
		return false, fmt.Sprintf("%s's onset is %s off the injection", v.Cause, v.OnsetError.Round(100*time.Millisecond))
	case v.Kept != v.Cause:
		return false, fmt.Sprintf("%s named first, but by the episode's end its first cause became %q: %s", v.Cause, v.Kept, v.KeptTitle)
	case len(v.NotChronic) > 0:
		return false, fmt.Sprintf("findings that stood through the normal not marked chronic: %s", strings.Join(v.NotChronic, ", "))
	}
	return true, ""
}

// String is the verdict in one line: the figures the closing note gives.
func (v Verdict) String() string {
	if v.Skipped != "" {
		return fmt.Sprintf("%-15s skipped: %s", v.Fault, v.Skipped)
	}
	if !v.Named {
		return fmt.Sprintf("%-15s %-18s not named; first named %q: %s", v.Fault, v.Cause, v.First, v.FirstTitle)
	}
	return fmt.Sprintf("%-15s %-18s named after %4.1f s at rank %d, onset %+.1f s; first named %q: %s", v.Fault,
		v.Cause, v.TimeToName.Seconds(), v.Rank, v.OnsetError.Seconds(), v.First, v.FirstTitle)
}

// Judgement is the monitor's verdicts on one run: each fault's, and the
// normal's.
type Judgement struct {
	Verdicts []Verdict
	// Judged is how long of the normal stretch the baseline was ready for.
	Judged time.Duration
	// FalseOnsets are the onsets that began in the normal stretch.
	FalseOnsets []snapshot.Onset
	// NewFindings counts, per finding ID, the frames of the judged normal in
	// which it stood at warning or above without being marked chronic.
	NewFindings map[string]int
	// Chronic are the IDs that stood through the judged normal (in most of
	// its frames): the findings to be marked chronic.
	Chronic []string
}

// FalsePerHour is the false onsets per hour of judged normal.
func (j *Judgement) FalsePerHour() float64 {
	if j.Judged <= 0 {
		return 0
	}
	return float64(len(j.FalseOnsets)) / j.Judged.Hours()
}

// chronicShare is the share of the judged normal's frames a finding stands
// in to count as standing through it.
const chronicShare = 0.8

// Judge reads the frames of a run against its timeline.
func Judge(frames []*snapshot.Frame, tl *Timeline) *Judgement {
	j := &Judgement{NewFindings: map[string]int{}}
	judgeNormal(j, frames, tl)
	for i, in := range tl.Injections {
		until := tl.Ended
		if i+1 < len(tl.Injections) && !tl.Injections[i+1].Began.IsZero() {
			until = tl.Injections[i+1].Began
		}
		j.Verdicts = append(j.Verdicts, judgeFault(frames, in, until, j.Chronic))
	}
	return j
}

// judgeNormal counts, over the frames of the normal stretches the baseline
// was ready for (before the first fault, and the quiet ones), the onsets
// and the findings that are news.
func judgeNormal(j *Judgement, frames []*snapshot.Frame, tl *Timeline) {
	seen := map[string]bool{}
	stood := map[string]int{}
	stretches := append([]Stretch{{From: tl.Began, To: tl.NormalUntil}}, tl.Quiet...)
	n := 0
	for _, f := range frames {
		at := f.Time()
		in := false
		for _, s := range stretches {
			in = in || !at.Before(s.From) && at.Before(s.To)
		}
		if !in || f.Normal == nil || !f.Normal.Ready {
			continue
		}
		if f.Rates != nil {
			j.Judged += time.Duration(f.Rates.Interval * float64(time.Second))
		}
		n++
		for _, o := range f.Onsets {
			if k := o.Cause + "@" + o.At.String(); !seen[k] {
				seen[k] = true
				j.FalseOnsets = append(j.FalseOnsets, o)
			}
		}
		for _, x := range f.Findings {
			stood[x.ID]++
			if x.Severity >= snapshot.Warning && !x.Chronic {
				j.NewFindings[x.ID]++
			}
		}
	}
	for id, c := range stood {
		if float64(c) >= chronicShare*float64(n) {
			j.Chronic = append(j.Chronic, id)
		}
	}
	sort.Strings(j.Chronic)
}

// judgeFault reads the frames from the injection to the next one.
func judgeFault(frames []*snapshot.Frame, in Injection, until time.Time, chronic []string) Verdict {
	v := Verdict{Fault: in.Fault, Cause: in.Cause, Skipped: in.Skipped}
	if in.Skipped != "" {
		return v
	}
	notChronic := map[string]bool{}
	for _, f := range frames {
		at := f.Time()
		if at.Before(in.Began) || !at.Before(until) {
			continue
		}
		if !at.After(in.Ended) {
			for _, x := range f.Findings {
				if !x.Chronic && contains(chronic, x.ID) {
					notChronic[x.ID] = true
				}
			}
		}
		// Onsets of an episode that opened before the injection are the
		// last fault's or a false one's: the fault's own are dated after.
		var fresh []snapshot.Onset
		for _, o := range f.Onsets {
			if !o.At.Before(in.Began.Add(-OnsetWithin)) {
				fresh = append(fresh, o)
			}
		}
		if len(fresh) == 0 {
			continue
		}
		if v.First == "" {
			v.First, v.FirstTitle = f.Onsets[0].Cause, f.Onsets[0].Title
		}
		if slices.ContainsFunc(fresh, func(o snapshot.Onset) bool { return o.Cause == in.Cause }) {
			v.Kept, v.KeptTitle = f.Onsets[0].Cause, f.Onsets[0].Title
		}
		if v.Named {
			continue
		}
		for _, o := range f.Onsets {
			if o.Cause == in.Cause && !o.At.Before(in.Began.Add(-OnsetWithin)) {
				v.Named, v.Rank = true, o.Rank
				v.TimeToName, v.OnsetError = at.Sub(in.Began), o.At.Sub(in.Began)
				v.First, v.FirstTitle = f.Onsets[0].Cause, f.Onsets[0].Title
			}
		}
	}
	for id := range notChronic {
		v.NotChronic = append(v.NotChronic, id)
	}
	sort.Strings(v.NotChronic)
	return v
}

func contains(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// Report is the judgement in lines for the test log.
func (j *Judgement) Report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "normal judged for %s: %d onsets (%.1f per hour); findings at warning or above not chronic: %v; "+
		"standing through it: %v\n", j.Judged.Round(time.Second), len(j.FalseOnsets), j.FalsePerHour(), j.NewFindings,
		j.Chronic)
	for _, o := range j.FalseOnsets {
		fmt.Fprintf(&b, "  false onset at %s: %s: %s\n", o.At.Format("15:04:05"), o.Cause, o.Title)
	}
	for _, v := range j.Verdicts {
		b.WriteString("  " + v.String() + "\n")
	}
	return b.String()
}
