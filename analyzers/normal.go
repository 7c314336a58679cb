package analyzers

import (
	"github.com/mytop-go/mytop-go/baseline"
	"github.com/mytop-go/mytop-go/snapshot"
)

// Judge compares the frame just evaluated with the server's own normal
// (package baseline): it sets the frame's onsets and marks its findings
// chronic or new. It runs inside the pipeline's Builder after Evaluate, so
// live, serve, record, replay and report reach the same verdict; the
// baseline is rebuilt from the frames, from the first one (a jump in the
// source starts it afresh, as a fresh run of the same frames would).
func (e *Engine) Judge(f *snapshot.Frame) {
	if f == nil || f.Snapshot == nil {
		return
	}
	if f.Seq == 0 && e.normal.Observed() {
		e.normal.Reset()
	}
	e.normal.Observe(f, e.routineOf(f))
}

// Baseline is the engine's baseline, for a consumer that keeps it across
// restarts (serve).
func (e *Engine) Baseline() *baseline.Tracker { return e.normal }

// routineOf is the routine work the rules recognised in f, with the tool
// named (only sightings that prove the tool).
func (e *Engine) routineOf(f *snapshot.Frame) []baseline.Routine {
	c, ok := e.counts[f.Seq]
	seen := c.routine
	if !ok {
		seen = routineIn(f.Snapshot.Processlist)
	}
	var out []baseline.Routine
	for _, s := range seen {
		if s.strength == markerTool {
			out = append(out, baseline.Routine{ID: s.id, Tool: s.tool, Doing: s.doing})
		}
	}
	return out
}
