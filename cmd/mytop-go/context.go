package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func timeoutContext(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}

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
