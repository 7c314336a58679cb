package recording

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/snapshot"
)

// PlayerOptions tune a Player. The zero value plays from the start at the
// recorded pace and stops at the end.
type PlayerOptions struct {
	// Start is where playback begins (zero: the first frame).
	Start time.Time
	// Speed multiplies the recorded pace (default 1).
	Speed float64
	// Follow keeps waiting for frames a concurrent recorder appends.
	Follow bool
	// Hold keeps Next waiting at the end of the recording for a step back or
	// a seek instead of returning io.EOF, so a dashboard keeps its last frame
	// and its replay keys.
	Hold bool
	// MaxPause caps the wait between two frames at speed 1, so a recorded gap
	// does not stall playback (default 2 s).
	MaxPause time.Duration
	// Warmup is how many frames before a seek target are delivered at once,
	// so windowed analyzers see the history they saw live.
	Warmup int
	// OnSkip is told about damaged frames, which are skipped.
	OnSkip func(error)
}

// Speed limits.
const (
	minSpeed = 1.0 / 64
	maxSpeed = 1024.0
)

// Player replays a recording as a pipeline.Source at the recorded pace times
// a speed, with pause, step, seek and jumps between findings. Controls may be
// called from any goroutine while another one blocks in Next.
type Player struct {
	r    *Reader
	opts PlayerOptions
	wake chan struct{}

	mu       sync.Mutex
	pos      int  // next frame to deliver
	target   int  // deliver without delay up to this frame; -1 none
	paused   bool // waiting for TogglePause, Step or Seek
	jumped   bool // the next frame delivered follows a discontinuity
	lastJump bool // the frame last returned followed one
	speed    float64
	lastTS   int64     // recorded time of the last frame delivered
	lastWall time.Time // when it was delivered
	started  bool
}

// NewPlayer returns a Player over r; closing it closes r.
func NewPlayer(r *Reader, opts PlayerOptions) *Player {
	if opts.MaxPause <= 0 {
		opts.MaxPause = 2 * time.Second
	}
	p := &Player{r: r, opts: opts, wake: make(chan struct{}, 1), target: -1, speed: 1}
	p.SetSpeed(opts.Speed)
	if !opts.Start.IsZero() {
		p.Seek(opts.Start)
	}
	return p
}

// Next blocks until the next frame is due and returns its Snapshot; io.EOF at
// the end of the recording unless following it.
func (p *Player) Next(ctx context.Context) (*snapshot.Snapshot, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		wait, err := p.due()
		if err != nil {
			return nil, err
		}
		if wait != 0 {
			if err := p.sleep(ctx, wait); err != nil {
				return nil, err
			}
			continue
		}
		s, err := p.deliver()
		var fe *frameError
		if errors.As(err, &fe) {
			if p.opts.OnSkip != nil {
				p.opts.OnSkip(err)
			}
			continue
		}
		if s != nil || err != nil {
			return s, err
		}
	}
}

// idle is how long Next waits when nothing can be due until a control or new
// frames arrive.
const idle = 250 * time.Millisecond

// untilControl is the wait of a held player at the end: until a control
// moves it.
const untilControl time.Duration = -2

// due returns 0 when frame pos may be delivered now, else how long to wait.
func (p *Player) due() (time.Duration, error) {
	n := p.r.Len()
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.pos >= n && p.opts.Hold && !p.opts.Follow:
		return untilControl, nil
	case p.pos >= n && !p.opts.Follow:
		return 0, io.EOF
	case p.pos >= n:
		if _, err := p.r.Refresh(); err != nil {
			return 0, err
		}
		if p.r.Len() > n {
			return -1, nil // re-evaluate at once
		}
		return idle, nil
	case p.pos <= p.target || !p.started:
		return 0, nil
	case p.paused:
		return idle, nil
	}
	gap := time.Duration(float64(p.r.Time(p.pos).UnixNano()-p.lastTS) / p.speed)
	gap = min(max(gap, 0), time.Duration(float64(p.opts.MaxPause)/p.speed))
	if left := time.Until(p.lastWall.Add(gap)); left > 0 {
		return left, nil
	}
	return 0, nil
}

// sleep waits d (or not at all when d < 0; untilControl: without a timer),
// or until a control wakes it.
func (p *Player) sleep(ctx context.Context, d time.Duration) error {
	if d == untilControl {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-p.wake:
			return nil
		}
	}
	if d < 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-p.wake:
	case <-t.C:
	}
	return nil
}

// deliver decodes frame pos and advances. It returns (nil, nil) when a
// control moved the position meanwhile.
func (p *Player) deliver() (*snapshot.Snapshot, error) {
	p.mu.Lock()
	pos := p.pos
	p.mu.Unlock()
	s, err := p.r.Snapshot(pos) // decoding may take a while: not under p.mu
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pos != pos {
		return nil, nil
	}
	p.pos++
	if p.pos > p.target {
		p.target = -1
	}
	if err != nil {
		p.jumped = true // the frame before the next one is missing
		return nil, err
	}
	p.lastJump, p.jumped = p.jumped, false
	p.lastTS, p.lastWall, p.started = s.Time.UnixNano(), time.Now(), true
	return s, nil
}

func (p *Player) poke() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// TogglePause pauses or resumes playback and returns whether it is now paused.
func (p *Player) TogglePause() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paused = !p.paused
	p.lastWall = time.Now() // resume at the recorded pace from now, no burst
	p.poke()
	return p.paused
}

// Paused reports whether playback is paused.
func (p *Player) Paused() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.paused
}

// Step pauses and moves n frames from the one last shown (n < 0: back); the
// frame stepped to is delivered at once. Any step but one forward is a jump,
// preceded by the warm-up frames like a seek.
func (p *Player) Step(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paused = true
	to := min(max(p.pos-1+n, 0), max(p.r.Len()-1, 0))
	if n == 1 {
		p.moveTo(to, false, 0)
		return
	}
	p.moveTo(to, true, p.opts.Warmup)
}

// Seek moves to the last frame at or before t; playback continues from there
// (or shows that frame, when paused).
func (p *Player) Seek(t time.Time) {
	i := p.r.Seek(t)
	if i < 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.moveTo(i, true, p.opts.Warmup)
}

// moveTo makes frame i the next delivered at once, after up to warmup frames
// before it. Called with p.mu held.
func (p *Player) moveTo(i int, jump bool, warmup int) {
	p.pos, p.target = max(i-warmup, 0), i
	p.jumped = p.jumped || jump
	p.poke()
}

// SetSpeed sets the pace multiplier, clamped to minSpeed..maxSpeed; zero or
// less means 1.
func (p *Player) SetSpeed(x float64) {
	if x <= 0 {
		x = 1
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.speed = min(max(x, minSpeed), maxSpeed)
	p.poke()
}

// Speed is the current pace multiplier.
func (p *Player) Speed() float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.speed
}

// NextFinding seeks to the onset of the next (dir > 0) or previous (dir < 0)
// finding episode relative to the frame last shown, and returns its time;
// false when there is none.
func (p *Player) NextFinding(dir int) (time.Time, bool) {
	p.mu.Lock()
	from := p.lastTS
	if !p.started {
		from = p.r.Time(p.pos).UnixNano()
	}
	p.mu.Unlock()
	t, ok, err := p.r.FindingOnset(fromNanos(from), dir)
	if err != nil || !ok {
		return time.Time{}, false
	}
	p.Seek(t)
	return t, true
}

// Position returns the index and recorded time of the frame last delivered
// (-1 before the first).
func (p *Player) Position() (int, time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.started {
		return -1, time.Time{}
	}
	return p.pos - 1, fromNanos(p.lastTS)
}

// Jumped reports whether the frame last returned by Next follows a seek, a
// step other than one forward, or a skipped frame: consumers that keep a
// window of history (rates, analyzers) should start it afresh.
func (p *Player) Jumped() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastJump
}

// Len is the number of frames in the recording.
func (p *Player) Len() int { return p.r.Len() }

// Close closes the Reader.
func (p *Player) Close() error { return p.r.Close() }

var _ pipeline.Source = (*Player)(nil)
