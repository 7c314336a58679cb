package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/mytop-go/mytop-go/internal/selfstat"
)

// signalContext is cancelled by SIGINT, SIGTERM or SIGHUP, so headless
// commands stop cleanly and flush what they wrote.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
}

// notifyStatus delivers SIGUSR1, on which a recorder prints its own health.
func notifyStatus() chan os.Signal {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGUSR1)
	return c
}

// dashboardSignals is the dashboard's context: done on SIGHUP (the terminal
// went away) or SIGTERM. On SIGUSR1 tell gets the monitor's own health
// (selfstat.Line) for the message line.
func dashboardSignals(tell func(string)) (context.Context, context.CancelFunc) {
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGHUP, syscall.SIGTERM)
	health := notifyStatus()
	go func() {
		defer signal.Stop(health)
		for {
			select {
			case <-health:
				tell("mytop-go: " + selfstat.Line())
			case <-ctx.Done():
				return
			}
		}
	}()
	return ctx, cancel
}
