package baseline

import "time"

// toolMemory is how long a routine tool counts as running after it was
// last sighted. A tool whose statements are shorter than the sampling
// interval, or that reconnects for each table or file (a restore driven by
// a script, a dump per schema), is caught in one frame of two or three; a
// signal that reads 1, 0, 1 is no signal. Two short windows: it stops
// counting soon after the tool stops, so its episode closes in time.
const toolMemory = 10 * time.Second

// toolsRunning is the frame's routine work, with one session for each tool
// sighted within toolMemory but not in this frame.
func (t *Tracker) toolsRunning(routine []Routine, at time.Time) []Routine {
	now := float64(at.UnixNano()) / 1e9
	for _, r := range routine {
		t.toolSeen[r.Tool] = now
	}
	out := routine
	for tool, last := range t.toolSeen {
		switch {
		case now-last >= toolMemory.Seconds() || now < last:
			delete(t.toolSeen, tool)
		case now > last:
			if len(out) == len(routine) {
				out = append([]Routine(nil), routine...)
			}
			out = append(out, Routine{Tool: tool})
		}
	}
	return out
}
