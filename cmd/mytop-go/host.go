package main

import "github.com/mytop-go/mytop-go/collectors"

// hostCollector samples this machine only when the server runs on it; for a
// remote server the host panel says so instead of showing the wrong machine.
func hostCollector(address string) collectors.Collector {
	return &collectors.Host{Remote: !collectors.IsLocalServer(address)}
}
