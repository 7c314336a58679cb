package main

import (
	"github.com/mytop-go/mytop-go/analyzers"
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
