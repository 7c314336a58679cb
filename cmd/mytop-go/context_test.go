package main

import (
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestDashboardSignals: SIGUSR1 tells the monitor's health, SIGHUP ends the
// dashboard. Uncaught, either would kill the test binary.
func TestDashboardSignals(t *testing.T) {
	told := make(chan string, 1)
	ctx, cancel := dashboardSignals(func(line string) { told <- line })
	defer cancel()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	select {
	case line := <-told:
		if !strings.HasPrefix(line, "mytop-go: goroutines ") {
			t.Errorf("told %q, want the monitor's own health", line)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("SIGUSR1 told nothing")
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("SIGHUP did not end the dashboard's context")
	}
}
