package ui

import (
	"context"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Actions are the statements the dashboard may send to the server on the
// user's request. It is nil when there is no server (replay, import).
type Actions interface {
	// Explain returns the plan of query as run by thread threadID.
	Explain(ctx context.Context, threadID int64, query string) ([]snapshot.ExplainRow, error)
	// Kill runs KILL QUERY, or KILL CONNECTION when connection is set.
	Kill(ctx context.Context, threadID int64, connection bool) error
}

// Player drives a replay. It is nil in a live session.
type Player interface {
	TogglePause()
	// Step moves n frames forward (negative: backward) and pauses.
	Step(n int)
	Seek(t time.Time)
	SetSpeed(x float64)
	// NextFinding jumps to the next (dir > 0) or previous (dir < 0) onset of a finding.
	NextFinding(dir int)
	// Timeline is the source's time range, the current position and the
	// stretches during which findings were active.
	Timeline() (from, to, at time.Time, spans []Span)
}

// Span is a stretch of the timeline during which a finding was active.
type Span struct {
	From, To time.Time
	ID       string
	Severity snapshot.Severity
}

// Options configure a Dashboard.
type Options struct {
	Actions Actions
	// ReadOnly leaves the KILL keys unbound, whatever Actions allows.
	ReadOnly bool
	Player   Player
	// HistoryLen is how many frames the sparklines remember (default 300).
	HistoryLen int
}
