package exporter

import (
	"fmt"
	"net/http"
	"time"
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
