package main

import (
	"context"
	"fmt"
	"io"

	"github.com/mytop-go/mytop-go/collectors"
	"github.com/mytop-go/mytop-go/fleet"
	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/ui"
)

// runFleetDashboard is the dashboard over several servers: the fleet view
// first, each server's own dashboard behind Enter.
func runFleetDashboard(lf *collectors.LiveFlags, readOnly bool, stderr io.Writer) error {
	members, err := fleet.Open(lf, liveBuilder, stderr)
	if err != nil {
		return err
	}
	names := make([]string, len(members))
	actions := map[string]ui.Actions{}
	for i, m := range members {
		names[i] = m.Name
		if live, ok := m.Source.(*collectors.Live); ok {
			actions[m.Name] = live
		}
	}
	view := ui.NewFleet(names, func(server string) ui.Options {
		return ui.Options{Actions: actions[server], ReadOnly: readOnly}
	})
	ctx, cancel := dashboardSignals(view.Tell)
	defer cancel()
	shown, produced := pipeline.Feed(ctx, 4*len(members), func(ctx context.Context, emit func(ui.ServerFrame)) error {
		return fleet.Run(ctx, members, func(server string, f *snapshot.Frame) { emit(ui.ServerFrame{Server: server, Frame: f}) })
	}, func(frames <-chan ui.ServerFrame) error {
		app, err := ui.NewApplication()
		if err != nil {
			return fmt.Errorf("terminal: %w", err)
		}
		return view.Run(ctx, app, frames)
	})
	if shown != nil {
		return shown
	}
	return <-produced // fleet.Run closes every member's connection before it returns
}
