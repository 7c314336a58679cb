package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// devProfileEnv names a file for a CPU profile of the whole run, for
// bench/compare.sh -m live-profile: the dashboard's own draw only shows in a
// profile of the real binary (bench/profile runs the record pipeline).
// devHeapEnv names a file for a heap profile written at the end of the run
// (bench/fleet-cost.sh -p: what a fleet's memory is made of). Developers'
// knobs, not part of the command line contract, so environment variables
// rather than flags in --help and the man page.
const (
	devProfileEnv = "MYTOP_GO_CPUPROFILE"
	devHeapEnv    = "MYTOP_GO_HEAPPROFILE"
)

// startDevProfile starts the CPU profile when asked; the returned func
// stops it and is safe to call when none was started.
func startDevProfile(stderr io.Writer) func() {
	stopCPU := startCPUProfile(stderr)
	return func() {
		stopCPU()
		writeHeapProfile(stderr)
	}
}

func startCPUProfile(stderr io.Writer) func() {
	path := os.Getenv(devProfileEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(stderr, "mytop-go: %s: %v\n", devProfileEnv, err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(stderr, "mytop-go: %s: %v\n", devProfileEnv, err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

func writeHeapProfile(stderr io.Writer) {
	path := os.Getenv(devHeapEnv)
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.WriteHeapProfile(f)
		f.Close()
	}
	if err != nil {
		fmt.Fprintf(stderr, "mytop-go: %s: %v\n", devHeapEnv, err)
	}
}
