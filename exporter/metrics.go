package exporter

import (
	"sort"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The metric names are a contract with the shipped alert rules
// (examples/prometheus/alerts.yml) and with users' dashboards.
var (
	findingDesc = prometheus.NewDesc("mytop_finding",
		"1 for each finding active on the server in the latest frame.",
		[]string{"server", "id", "severity"}, nil)
	findingSinceDesc = prometheus.NewDesc("mytop_finding_since_seconds",
		"Onset of the active finding, as a Unix time.",
		[]string{"server", "id", "severity"}, nil)
	findingChronicDesc = prometheus.NewDesc("mytop_finding_chronic",
		"1 when the active finding stood through the server's baseline (how it runs, not news), 0 when it is new.",
		[]string{"server", "id", "severity"}, nil)
	onsetDesc = prometheus.NewDesc("mytop_onset",
		"Rank (1 first) of each cause of the episode open against the server's own normal; gone when it closes.",
		[]string{"server", "cause"}, nil)
	onsetSinceDesc = prometheus.NewDesc("mytop_onset_since_seconds",
		"Onset of the cause, as a Unix time.",
		[]string{"server", "cause"}, nil)
	baselineDesc = prometheus.NewDesc("mytop_baseline_minutes",
		"Minutes of normal the server's baseline holds (onsets are judged from the warm-up's end).",
		[]string{"server"}, nil)
	upDesc = prometheus.NewDesc("mytop_server_up",
		"1 when the server answered the latest sample, 0 when it did not.",
		[]string{"server", "version"}, nil)
	loginRefusedDesc = prometheus.NewDesc("mytop_login_refused",
		"1 while the server refuses the monitor's login, with the reason.",
		[]string{"server", "reason"}, nil)
	loginRetryDesc = prometheus.NewDesc("mytop_login_retry_seconds",
		"When the monitor next tries to log in after a refusal, as a Unix time.",
		[]string{"server"}, nil)
	sampleTimeDesc = prometheus.NewDesc("mytop_last_sample_seconds",
		"Time of the latest sample, as a Unix time.",
		[]string{"server"}, nil)
	framesDesc = prometheus.NewDesc("mytop_frames_total",
		"Frames built for the server since the monitor started.",
		[]string{"server"}, nil)
	collectorUpDesc = prometheus.NewDesc("mytop_collector_ok",
		"1 when the collector's part of the latest sample is fresh, 0 when stale, failed or unavailable.",
		[]string{"server", "collector"}, nil)
	collectorLatencyDesc = prometheus.NewDesc("mytop_collector_latency_seconds",
		"How long the collector took in the latest sample.",
		[]string{"server", "collector"}, nil)
	figureDesc = prometheus.NewDesc("mytop_server_figure",
		"Headline figures of the latest interval (queries per second, threads running, ...).",
		[]string{"server", "figure"}, nil)
)

func collectServer(ch chan<- prometheus.Metric, server string, f *snapshot.Frame, frames uint64) {
	s := f.Snapshot
	gauge(ch, upDesc, boolValue(!s.Server.Unreachable), server, s.Server.Version)
	gauge(ch, sampleTimeDesc, float64(s.Time.UnixNano())/1e9, server)
	if r := s.Server.LoginRefused; r != "" {
		gauge(ch, loginRefusedDesc, 1, server, string(r))
		if !s.Server.LoginRetry.IsZero() {
			gauge(ch, loginRetryDesc, float64(s.Server.LoginRetry.Unix()), server)
		}
	}
	counter(ch, framesDesc, float64(frames), server)
	for _, fd := range f.Findings {
		sev := fd.Severity.String()
		gauge(ch, findingDesc, 1, server, fd.ID, sev)
		if !fd.Since.IsZero() {
			gauge(ch, findingSinceDesc, float64(fd.Since.Unix()), server, fd.ID, sev)
		}
		gauge(ch, findingChronicDesc, boolValue(fd.Chronic), server, fd.ID, sev)
	}
	collectOnsets(ch, server, f)
	collectCollectors(ch, server, s.Collectors)
	collectFigures(ch, server, f)
}

// collectOnsets exports the open episode's causes, the rank as the value
// (a label would start a new series each time the ranking moved).
func collectOnsets(ch chan<- prometheus.Metric, server string, f *snapshot.Frame) {
	for _, o := range f.Onsets {
		gauge(ch, onsetDesc, float64(o.Rank), server, o.Cause)
		gauge(ch, onsetSinceDesc, float64(o.At.Unix()), server, o.Cause)
	}
	if f.Normal != nil {
		gauge(ch, baselineDesc, f.Normal.HistoryMinutes, server)
	}
}

func collectCollectors(ch chan<- prometheus.Metric, server string, cs map[snapshot.CollectorName]snapshot.CollectorState) {
	names := make([]string, 0, len(cs))
	for n := range cs {
		names = append(names, string(n))
	}
	sort.Strings(names)
	for _, n := range names {
		st := cs[snapshot.CollectorName(n)]
		ok := !st.Stale && st.Error == "" && st.Unavailable == ""
		gauge(ch, collectorUpDesc, boolValue(ok), server, n)
		gauge(ch, collectorLatencyDesc, st.Latency.Seconds(), server, n)
	}
}

// figures are the status rates worth a graph beside the findings; the rest
// belongs to a real mysqld exporter, which mytop-go does not try to be.
var figures = []struct{ name, status string }{
	{"queries_per_second", "Questions"},
	{"slow_queries_per_second", "Slow_queries"},
	{"innodb_row_lock_waits_per_second", "Innodb_row_lock_waits"},
	// On a Galera node: the one sending flow control holds the cluster back;
	// comparing this series across nodes names it.
	{"galera_flow_control_sent_per_second", "wsrep_flow_control_sent"},
	{"galera_flow_control_recv_per_second", "wsrep_flow_control_recv"},
}

func collectFigures(ch chan<- prometheus.Metric, server string, f *snapshot.Frame) {
	if f.Rates != nil {
		for _, fig := range figures {
			if v, ok := f.Rates.Rate(fig.status); ok {
				gauge(ch, figureDesc, v, server, fig.name)
			}
		}
		if g, ok := f.Rates.Galera(); ok {
			gauge(ch, figureDesc, g.PausedFraction, server, "galera_flow_control_paused_fraction")
		}
	}
	if f.Snapshot.Server.Unreachable {
		return
	}
	running := 0
	for _, p := range f.Snapshot.Processlist {
		if p.Command != "Sleep" && p.Command != "Daemon" {
			running++
		}
	}
	gauge(ch, figureDesc, float64(running), server, "threads_active")
	gauge(ch, figureDesc, float64(len(f.Snapshot.Processlist)), server, "threads_connected")
	// While the full processlist is read less often than every sample (it
	// costs the server more than the monitor allows itself), how old its
	// idle rows are: 0 on a sample that read it.
	if c := f.Snapshot.ListCadence; c != nil {
		gauge(ch, figureDesc, max(0, f.Snapshot.Time.Sub(c.FullAt).Seconds()), server, "processlist_age_seconds")
	}
}

func gauge(ch chan<- prometheus.Metric, d *prometheus.Desc, v float64, labels ...string) {
	ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
}

func counter(ch chan<- prometheus.Metric, d *prometheus.Desc, v float64, labels ...string) {
	ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, labels...)
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
