//go:build !linux

package testdb

import "time"

// lockRun is the heavy-test lock between test processes; outside Linux each
// process keeps its own slot only.
func lockRun() func() { return func() {} }

// lockPoll is heavy_linux.go's poll; here nothing polls.
const lockPoll = 50 * time.Millisecond
