package changes

import (
	"strconv"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Window sums the frames of one period: what a comparison needs of it.
type Window struct {
	From, To time.Time
	Frames   int

	vars     map[string]string
	varSince map[string]time.Time

	// seconds is the time covered by rates; counters their increase over it.
	seconds  float64
	counters map[string]float64
	// gauges sum each gauge's value over gaugeFrames frames.
	gauges      map[string]float64
	gaugeFrames int

	// statementTotals sum the statements: digests, and the processlist of
	// the frames no digest sample covers (window_statements.go).
	statementTotals snapshot.StatementTotals

	// mix sums active sessions × seconds by "user:x", "host:y", "db:z",
	// from each frame's load slices; working is the active sessions × seconds.
	mix     map[string]float64
	working float64
	// load sums each wait class's sessions × seconds over loadSeconds.
	load        snapshot.ClassLoad
	loadSeconds float64
	// host sums each host figure (host.go) over the seconds it was read.
	host        map[string]hostSum
	hostScratch []hostFigure
	// onsets are the episodes the baseline opened in the window (onsets.go).
	onsets onsetList
}

// NewWindow starts an empty window.
func NewWindow() *Window {
	return &Window{
		vars: map[string]string{}, varSince: map[string]time.Time{},
		counters: map[string]float64{}, gauges: map[string]float64{}, mix: map[string]float64{},
		host: map[string]hostSum{},
	}
}

// Add takes one frame; frames come in time order.
func (w *Window) Add(f *snapshot.Frame) {
	s := f.Snapshot
	if s == nil || s.Server.Unreachable {
		return
	}
	if w.Frames == 0 {
		w.From = s.Time
	}
	w.To = s.Time
	w.Frames++
	w.addVariables(s)
	w.addStatus(f)
	w.statementTotals.Add(f)
	w.addLoad(f.Load)
	w.addHost(f)
	w.onsets.add(f.Onsets)
}

func (w *Window) addVariables(s *snapshot.Snapshot) {
	for k, v := range s.Variables {
		if old, ok := w.vars[k]; !ok || old != v {
			w.vars[k], w.varSince[k] = v, s.Time
		}
	}
}

// addStatus sums counters from the frame's rates (which skip a reset) and
// gauges from the snapshot's values.
func (w *Window) addStatus(f *snapshot.Frame) {
	if f.Rates != nil && f.Rates.Status != nil && !f.Rates.Reset {
		w.seconds += f.Rates.Interval
		for name, r := range f.Rates.Status {
			if snapshot.IsCounter(name) {
				w.counters[name] += r * f.Rates.Interval
			}
		}
	}
	if len(f.Snapshot.Status) == 0 {
		return
	}
	w.gaugeFrames++
	for name, raw := range f.Snapshot.Status {
		if snapshot.IsCounter(name) {
			continue
		}
		if v, err := strconv.ParseFloat(raw, 64); err == nil {
			w.gauges[name] += v
		}
	}
}

// addLoad sums the frame's database load: its classes, and its user, host
// and schema slices for the mix.
func (w *Window) addLoad(l *snapshot.Load) {
	if l == nil {
		return
	}
	secs := max(l.Interval, 0)
	w.loadSeconds += secs
	w.load.Add(&l.Classes, secs)
	w.working += float64(l.Active) * secs
	for i := range l.Slices {
		sl := &l.Slices[i]
		switch sl.By {
		case snapshot.DimUser, snapshot.DimHost, snapshot.DimDB:
			w.mix[string(sl.By)+":"+sl.Name] += sl.Sessions() * secs
		}
	}
}
