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
	// Kill runs KILL QUERY, or KILL CONNECTION when connection is set, of
	// the thread a dialog showed, only if the server still runs that
	// session and statement; else it sends nothing and returns a
	// *snapshot.KillRefused saying what changed.
	Kill(ctx context.Context, target snapshot.KillTarget, connection bool) error
}

// Player drives a replay. It is nil in a live session.
type Player interface {
	TogglePause()
	// Step moves n frames forward (negative: backward) and pauses.
	Step(n int)
	Seek(t time.Time)
	SetSpeed(x float64)
	// Speed is the pace the player actually uses (it clamps what SetSpeed asks).
	Speed() float64
	// NextFinding jumps to the next (dir > 0) or previous (dir < 0) finding
	// episode and returns it; false when there is none that way.
	NextFinding(dir int) (snapshot.Span, bool)
	// Timeline is the source's time range, the current position and the
	// stretches during which findings were active.
	Timeline() (from, to, at time.Time, spans []snapshot.Span)
}

// Recorder starts and stops recording the live session to a file. It is nil
// in replay, and when recording is not possible.
type Recorder interface {
	// Toggle starts recording when off (to a new or the configured file) and
	// stops it when on, closing the file.
	Toggle() (path string, recording bool, err error)
	// Status is the file being (or last) written, its size, and whether
	// frames are being written to it now.
	Status() (path string, size int64, recording bool)
}

// Login asks a live source to log in again after the server refused its
// login. It is nil when there is no server.
type Login interface {
	LogInAgain()
}

// Options configure a Dashboard.
type Options struct {
	Actions Actions
	// ReadOnly leaves the KILL keys unbound, whatever Actions allows.
	ReadOnly bool
	Player   Player
	Recorder Recorder
	Login    Login
	// HistoryLen is how many frames the sparklines remember (default 300).
	HistoryLen int
}
