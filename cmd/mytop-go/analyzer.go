package main

import (
	"fmt"
	"io"

	"github.com/mytop-go/mytop-go/analyzers"
	"github.com/mytop-go/mytop-go/baseline"
	"github.com/mytop-go/mytop-go/fleet"
	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/snapshot"
)

// newBuilder is the one place frames get their rates and findings, for every
// command, so live, replay, report and snapshot agree.
func newBuilder(mode snapshot.Mode) *pipeline.Builder {
	return pipeline.NewBuilder(mode, analyzers.NewEngine(analyzers.DefaultConfig()))
}

// liveBuilder is newBuilder for a live server.
func liveBuilder() *pipeline.Builder { return newBuilder(snapshot.ModeLive) }

// keptBaselines restores each server's baseline saved in dir (serve
// --record keeps them beside the recordings), and returns the keeper and
// the trackers it saves.
func keptBaselines(dir string, members []fleet.Member, stderr io.Writer) (*baseline.Keeper, map[string]*baseline.Tracker) {
	k := &baseline.Keeper{Dir: dir}
	trackers := map[string]*baseline.Tracker{}
	for _, m := range members {
		e, ok := m.Builder.Analyzer().(*analyzers.Engine)
		if !ok {
			continue
		}
		trackers[m.Name] = e.Baseline()
		if err := k.Restore(m.Name, e.Baseline()); err != nil {
			fmt.Fprintln(stderr, "mytop-go:", err)
		}
	}
	return k, trackers
}
