package main

import (
	"github.com/mytop-go/mytop-go/analyzers"
	"github.com/mytop-go/mytop-go/pipeline"
)

// newBuilder is the one place frames get their rates and findings, for every
// command, so live, replay, report and snapshot agree.
func newBuilder(mode string) *pipeline.Builder {
	return pipeline.NewBuilder(mode, analyzers.NewEngine(analyzers.DefaultConfig()))
}
