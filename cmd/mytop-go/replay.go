package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/rivo/tview"

	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/ui"
)

func runReplay(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addSourceFlags(fs)
	atS := fs.String("at", "", "start at this time (time, or +offset from the start)")
	speed := fs.Float64("speed", 1, "playback speed multiplier")
	follow := fs.Bool("follow", false, "keep showing frames another process appends to the recording")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	r, cleanup, err := openReplay(fs, *sf, stderr)
	if err != nil {
		return err
	}
	defer cleanup()
	start, _ := r.TimeRange()
	var at time.Time
	if *atS != "" {
		if at, err = parseTime(*atS, start); err != nil {
			return fmt.Errorf("--at: %v", err)
		}
	}
	skipped := 0
	player := recording.NewPlayer(r, recording.PlayerOptions{
		Start: at, Speed: *speed, Follow: *follow, Warmup: replayWarmup,
		OnSkip: func(error) { skipped++ },
	})
	defer player.Close()
	spans, err := r.FindingSpans()
	if err != nil {
		return err
	}
	dash := ui.New(ui.Options{Player: newReplayControls(player, r, spans)})
	err = playInto(dash, player)
	if skipped > 0 {
		fmt.Fprintf(stderr, "mytop-go: %d damaged frames were skipped\n", skipped)
	}
	return err
}

// replayWarmup is how many frames before a seek target are replayed at once,
// so findings have the persistence they had live.
const replayWarmup = 60

// openReplay opens SOURCE as a recording; a capture is first imported into a
// temporary recording, so replay has one engine for both.
func openReplay(fs *flag.FlagSet, sf sourceFlags, stderr io.Writer) (*recording.Reader, func(), error) {
	src, err := openArg(fs, sf, stderr)
	if err != nil {
		return nil, nil, err
	}
	if src.reader != nil {
		return src.reader, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "mytop-go-replay")
	if err != nil {
		return nil, nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	tmp := dir + "/capture.mytop"
	if err := writeRecording(src, tmp, false); err != nil {
		cleanup()
		return nil, nil, err
	}
	r, err := recording.Open(tmp)
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	return r, cleanup, nil
}

// playInto feeds the player's frames to the dashboard. When the player jumps
// (seek, step back), rates and findings start afresh from the frames it
// delivers, as they would have live.
func playInto(dash *ui.Dashboard, player *recording.Player) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	frames := make(chan *snapshot.Frame, 4)
	go func() {
		b := newBuilder(snapshot.ModeReplay)
		for ctx.Err() == nil {
			s, err := player.Next(ctx)
			if errors.Is(err, io.EOF) {
				// The end: keep the last frame on screen, but stay ready for a
				// step back or a seek.
				time.Sleep(200 * time.Millisecond)
				continue
			}
			if err != nil {
				return
			}
			if player.Jumped() {
				b = newBuilder(snapshot.ModeReplay)
			}
			select {
			case frames <- b.Add(s):
			case <-ctx.Done():
			}
		}
	}()
	return dash.Run(tview.NewApplication(), frames)
}

// replayControls adapts the recording player to the dashboard's controls.
type replayControls struct {
	p     *recording.Player
	r     *recording.Reader
	spans []snapshot.Span
}

func newReplayControls(p *recording.Player, r *recording.Reader, spans []snapshot.Span) *replayControls {
	return &replayControls{p: p, r: r, spans: spans}
}

func (c *replayControls) TogglePause()       { c.p.TogglePause() }
func (c *replayControls) Seek(t time.Time)   { c.p.Seek(t) }
func (c *replayControls) SetSpeed(x float64) { c.p.SetSpeed(x) }
func (c *replayControls) Speed() float64     { return c.p.Speed() }

// Step moves n frames and pauses. Anything but one frame forward is a seek,
// so the frames before the target are replayed and the findings standing
// there are shown, not lost with the history.
func (c *replayControls) Step(n int) {
	if n == 1 {
		c.p.Step(1)
		return
	}
	i, _ := c.p.Position()
	target := min(max(i+n, 0), c.r.Len()-1)
	if target < 0 {
		return
	}
	if !c.p.Paused() {
		c.p.TogglePause()
	}
	c.p.Seek(c.r.Time(target))
}

// NextFinding seeks to the first frame showing the next (dir > 0) or previous
// finding episode, relative to the frame on screen.
func (c *replayControls) NextFinding(dir int) (snapshot.Span, bool) {
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

func (c *replayControls) Timeline() (from, to, at time.Time, spans []snapshot.Span) {
	from, to = c.r.TimeRange()
	_, at = c.p.Position()
	if at.IsZero() {
		at = from
	}
	return from, to, at, c.spans
}
