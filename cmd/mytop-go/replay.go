package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/mytop-go/mytop-go/internal/cli"
	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/ui"
)

func runReplay(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	sf := recording.AddSourceFlags(fs)
	atS := fs.String("at", "", "start at this time (time, or +offset from the start)")
	speed := fs.Float64("speed", 1, "playback speed multiplier")
	follow := fs.Bool("follow", false, "keep showing frames another process appends to the recording")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	src, err := sf.Open(stderr)
	if err != nil {
		return err
	}
	r, cleanup, err := src.Replayable(recording.WriterOptions{Version: version}, newBuilder(src.Mode))
	if err != nil {
		return err
	}
	defer cleanup()
	start, _ := r.TimeRange()
	at, err := recording.TimeFlag("at", *atS, start)
	if err != nil {
		return err
	}
	skipped := 0
	player := recording.NewPlayer(r, recording.PlayerOptions{
		Start: at, Speed: *speed, Follow: *follow, Hold: true, Warmup: replayWarmup,
		OnSkip: func(error) { skipped++ },
	})
	defer player.Close()
	controls, err := recording.NewControls(player)
	if err != nil {
		return err
	}
	dash := ui.New(ui.Options{Player: controls})
	err = runDashboard(dash, player, newBuilder(snapshot.ModeReplay), nil)
	if skipped > 0 {
		fmt.Fprintf(stderr, "mytop-go: %d damaged frames were skipped\n", skipped)
	}
	return err
}

// replayWarmup is how many frames before a seek target are replayed at once,
// so findings have the persistence they had live.
const replayWarmup = 60
