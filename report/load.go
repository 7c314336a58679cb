package report

import (
	"math"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// Load is the database load over the report's range, the JSON's "load"
// (README, "Database load"): average active sessions by wait class, second by second and
// sliced by statement, user, host, db and locked table.
type Load struct {
	// CPUs is the host's CPU count, what the load reads against; 0 unknown.
	CPUs int `json:"cpus,omitempty"`
	// AverageActive and Average are over the whole range.
	AverageActive float64            `json:"average_active"`
	Average       snapshot.ClassLoad `json:"average"`
	PeakActive    int                `json:"peak_active"`
	PeakAt        time.Time          `json:"peak_at"`
	// PerSecond is one entry per second that has samples, their average.
	PerSecond []LoadSecond `json:"per_second"`
	// Top is the biggest slices of each dimension over the range.
	Top []LoadTop `json:"top"`
}

// LoadSecond is the load of one second.
type LoadSecond struct {
	T       time.Time          `json:"t"`
	Active  float64            `json:"active"`
	Classes snapshot.ClassLoad `json:"classes"`
}

// LoadTop is one slice: average active sessions, their share of the whole
// load, and by class.
type LoadTop struct {
	By      snapshot.LoadDim   `json:"by"`
	Name    string             `json:"name"`
	Load    float64            `json:"load"`
	Share   float64            `json:"share"`
	Classes snapshot.ClassLoad `json:"classes"`
}

// loadTopN is how many slices of each dimension the report keeps.
const loadTopN = 5

// loadAcc gathers frames' load, averaging the samples within each second.
type loadAcc struct {
	totals  infer.LoadTotals
	seconds []LoadSecond
	n       int // samples in the last second
}

func (a *loadAcc) add(f *snapshot.Frame) {
	l := f.Load
	if l == nil {
		return
	}
	a.totals.Add(l)
	sec := l.At.Truncate(time.Second).UTC()
	if k := len(a.seconds); k == 0 || !a.seconds[k-1].T.Equal(sec) {
		a.seconds = append(a.seconds, LoadSecond{T: sec})
		a.n = 0
	}
	s := &a.seconds[len(a.seconds)-1]
	a.n++
	// running mean, so a second of several samples is their average
	k := 1 / float64(a.n)
	s.Active += (float64(l.Active) - s.Active) * k
	for c := range s.Classes {
		s.Classes[c] += (l.Classes[c] - s.Classes[c]) * k
	}
}

// report is nil when no frame said anything of sessions.
func (a *loadAcc) report() *Load {
	t := &a.totals
	if t.Samples == 0 {
		return nil
	}
	avg := t.Average()
	out := &Load{CPUs: t.CPUs, Average: avg, AverageActive: round3(avg.Total()), PeakActive: t.Peak,
		PeakAt: t.PeakAt.UTC(), PerSecond: make([]LoadSecond, len(a.seconds)), Top: []LoadTop{}}
	for i, s := range a.seconds {
		s.Active = round3(s.Active)
		out.PerSecond[i] = s
	}
	total := avg.Total()
	for _, s := range t.Top(loadTopN) {
		top := LoadTop{By: s.By, Name: s.Name, Load: round3(s.Sessions()), Classes: s.Classes}
		if total > 0 {
			top.Share = round3(s.Sessions() / total)
		}
		out.Top = append(out.Top, top)
	}
	return out
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }
