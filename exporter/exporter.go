// Package exporter publishes the latest frame of each monitored server as
// Prometheus metrics: one series per active finding, collector health and
// latency, a few headline figures, and the monitor's own cost, so an existing
// Prometheus + Alertmanager pages on what mytop-go found.
package exporter

import (
	"net/http"
	"sort"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Exporter keeps the latest frame per server; scrapes read it, so a scrape
// never waits for a server and a dead server shows as down, not as a hang.
type Exporter struct {
	mu     sync.Mutex
	latest map[string]*snapshot.Frame
	frames map[string]uint64
}

// New returns an empty exporter.
func New() *Exporter {
	return &Exporter{latest: map[string]*snapshot.Frame{}, frames: map[string]uint64{}}
}

// Observe records f as server's latest frame. Safe from any goroutine.
func (e *Exporter) Observe(server string, f *snapshot.Frame) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.latest[server] = f
	e.frames[server]++
}

// Handler serves /metrics in OpenMetrics text when the scraper asks for it
// (Prometheus does), the classic text format otherwise, together with the
// Go runtime and process metrics that give the monitor's own cost.
func (e *Exporter) Handler() http.Handler {
	reg := prometheus.NewRegistry()
	reg.MustRegister(e,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{EnableOpenMetrics: true})
}

// Describe sends nothing: the label sets follow the findings, so the exporter
// is an unchecked collector.
func (e *Exporter) Describe(chan<- *prometheus.Desc) {}

// Collect writes the metrics of every server's latest frame.
func (e *Exporter) Collect(ch chan<- prometheus.Metric) {
	e.mu.Lock()
	defer e.mu.Unlock()
	names := make([]string, 0, len(e.latest))
	for n := range e.latest {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		collectServer(ch, n, e.latest[n], e.frames[n])
	}
}
