package exporter

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Server serves e's /metrics, and a one-line pointer to it at /.
func (e *Exporter) Server() *http.Server {
	mux := http.NewServeMux()
	mux.Handle("/metrics", e.Handler())
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintln(w, "mytop-go: metrics at /metrics")
	})
	return &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
}

// Serve publishes /metrics on ln for as long as run feeds the exporter
// through observe (fleet.Run does), then gives the scrapes in flight two
// seconds to finish. A run cancelled by its context is a clean stop.
func (e *Exporter) Serve(ln net.Listener, run func(observe func(server string, f *snapshot.Frame)) error) error {
	srv := e.Server()
	go srv.Serve(ln)
	err := run(e.Observe)
	shutdown, stop := context.WithTimeout(context.Background(), 2*time.Second)
	defer stop()
	srv.Shutdown(shutdown)
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	return err
}
