package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/mytop-go/mytop-go/internal/cli"
	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/ui"
	"github.com/mytop-go/mytop-go/ui/picture"
)

// warmup is how much of the source before --at is replayed, so findings have
// their persistence and sparklines their history, as on the live screen.
const warmup = 5 * time.Minute

func runSnapshot(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("snapshot", flag.ContinueOnError)
	sf := recording.AddSourceFlags(fs)
	atS := fs.String("at", "", "the moment to draw (time, or +offset from the source's start; default: the end)")
	out := fs.String("o", "", "output file: .svg, .png or .txt")
	width := fs.Int("width", 160, "terminal columns")
	height := fs.Int("height", 48, "terminal rows")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("snapshot needs -o OUT.svg|OUT.png|OUT.txt")
	}
	if *width < 20 || *height < 10 {
		return fmt.Errorf("--width/--height: at least 20×10")
	}
	src, err := sf.Open(stderr)
	if err != nil {
		return err
	}
	defer src.Close()
	start, end := src.TimeRange()
	at, err := recording.Moment(*atS, start, end)
	if err != nil {
		return err
	}
	frames, err := framesUpTo(src, at)
	if err != nil {
		return err
	}
	if len(frames) == 0 {
		return fmt.Errorf("no frame at or before %s", at.Format(time.DateTime))
	}
	last := frames[len(frames)-1]
	screen := ui.Render(last, *width, *height, frames[:len(frames)-1])
	if err := picture.Write(*out, screen); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "mytop-go: wrote %s (%d×%d, frame at %s)\n", *out, *width, *height, last.Time().Format(time.DateTime))
	return nil
}

// framesUpTo replays the warm-up period before at and returns its frames.
func framesUpTo(src *recording.Source, at time.Time) ([]*snapshot.Frame, error) {
	var frames []*snapshot.Frame
	err := pipeline.Run(context.Background(), src.Frames(at.Add(-warmup), at), newBuilder(src.Mode), func(f *snapshot.Frame) error {
		frames = append(frames, f)
		return nil
	})
	return frames, err
}
