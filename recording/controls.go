package recording

import (
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Controls are a replay's keys as the dashboard calls them: the player's
// pause, step, seek and speed, and jumps between the recording's finding
// episodes, which it shows on a timeline.
type Controls struct {
	p     *Player
	spans []snapshot.Span
}

// NewControls reads the recording's finding episodes for p's timeline.
func NewControls(p *Player) (*Controls, error) {
	spans, err := p.r.FindingSpans()
	if err != nil {
		return nil, err
	}
	return &Controls{p: p, spans: spans}, nil
}

// TogglePause pauses or resumes playback.
func (c *Controls) TogglePause() { c.p.TogglePause() }

// Seek moves playback to t.
func (c *Controls) Seek(t time.Time) { c.p.Seek(t) }

// SetSpeed sets the pace multiplier.
func (c *Controls) SetSpeed(x float64) { c.p.SetSpeed(x) }

// Speed is the pace the player uses.
func (c *Controls) Speed() float64 { return c.p.Speed() }

// Step moves n frames and pauses. Anything but one frame forward is a seek,
// so the frames before the target are replayed and the findings standing
// there are shown, not lost with the history.
func (c *Controls) Step(n int) {
	if n == 1 {
		c.p.Step(1)
		return
	}
	i, _ := c.p.Position()
	target := min(max(i+n, 0), c.p.r.Len()-1)
	if target < 0 {
		return
	}
	if !c.p.Paused() {
		c.p.TogglePause()
	}
	c.p.Seek(c.p.r.Time(target))
}

// NextFinding seeks to the first frame showing the next (dir > 0) or previous
// finding episode, relative to the frame on screen.
func (c *Controls) NextFinding(dir int) (snapshot.Span, bool) {
	_, _, at, _ := c.Timeline()
	best := -1
	for i, s := range c.spans {
		t := s.Shown
		switch {
		case dir > 0 && t.After(at) && (best < 0 || t.Before(c.spans[best].Shown)):
			best = i
		case dir < 0 && t.Before(at) && (best < 0 || !t.Before(c.spans[best].Shown)):
			best = i
		}
	}
	if best < 0 {
		return snapshot.Span{}, false
	}
	c.p.Seek(c.spans[best].Shown)
	return c.spans[best], true
}

// Timeline is the recording's time range, the frame on screen and the
// finding episodes.
func (c *Controls) Timeline() (from, to, at time.Time, spans []snapshot.Span) {
	from, to = c.p.r.TimeRange()
	_, at = c.p.Position()
	if at.IsZero() {
		at = from
	}
	return from, to, at, c.spans
}
