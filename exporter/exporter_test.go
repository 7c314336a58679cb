package exporter

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

func frame(t0 time.Time, unreachable bool, findings ...snapshot.Finding) *snapshot.Frame {
	return &snapshot.Frame{
		Snapshot: &snapshot.Snapshot{
			Time:   t0,
			Server: snapshot.ServerInfo{Version: "10.11.19-MariaDB", Unreachable: unreachable},
			Processlist: []snapshot.Process{
				{ID: 1, Command: "Query"}, {ID: 2, Command: "Sleep"}, {ID: 3, Command: "Query"},
			},
			Collectors: map[snapshot.CollectorName]snapshot.CollectorState{
				snapshot.CollectorName("status"):      {Latency: 3 * time.Millisecond},
				snapshot.CollectorName("replica"):     {Unavailable: "needs REPLICATION CLIENT"},
				snapshot.CollectorName("processlist"): {Stale: true, Error: "timeout"},
			},
		},
		Rates:    &snapshot.Rates{Status: map[string]float64{"Questions": 1482}},
		Findings: findings,
	}
}

func scrape(t *testing.T, e *Exporter) string {
	t.Helper()
	srv := httptest.NewServer(e.Handler())
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL, nil)
	req.Header.Set("Accept", "application/openmetrics-text; version=1.0.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/openmetrics-text") {
		t.Errorf("Content-Type %q, want OpenMetrics", ct)
	}
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func TestExporterSeries(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 14, 2, 17, 0, time.UTC)
	e := New()
	e.Observe("db1:3306", frame(t0, false, snapshot.Finding{
		ID: "query_cache_contention", Severity: snapshot.Critical, Since: t0.Add(-41 * time.Second)}))
	e.Observe("db2:3306", frame(t0, true))
	e.Observe("db2:3306", frame(t0.Add(time.Second), true))
	carried := frame(t0, false)
	carried.Snapshot.ListCadence = &snapshot.ListCadence{FullAt: t0.Add(-3 * time.Second), Every: 4 * time.Second}
	e.Observe("db3:3306", carried)
	out := scrape(t, e)
	got := series(out)
	for _, tc := range []struct{ name, want string }{
		{"the finding of db1", `mytop_finding{server="db1:3306",id="query_cache_contention",severity="critical"} 1`},
		{"its onset", `mytop_finding_since_seconds{server="db1:3306",id="query_cache_contention",severity="critical"} 1796133696`},
		{"db1 up", `mytop_server_up{server="db1:3306",version="10.11.19-MariaDB"} 1`},
		{"db2 down", `mytop_server_up{server="db2:3306",version="10.11.19-MariaDB"} 0`},
		{"frames counted per server", `mytop_frames_total{server="db2:3306"} 2`},
		{"a fresh collector", `mytop_collector_ok{server="db1:3306",collector="status"} 1`},
		{"a stale collector", `mytop_collector_ok{server="db1:3306",collector="processlist"} 0`},
		{"an unavailable collector", `mytop_collector_ok{server="db1:3306",collector="replica"} 0`},
		{"collector latency", `mytop_collector_latency_seconds{server="db1:3306",collector="status"} 0.003`},
		{"QPS", `mytop_server_figure{server="db1:3306",figure="queries_per_second"} 1482`},
		{"active threads", `mytop_server_figure{server="db1:3306",figure="threads_active"} 2`},
		{"a processlist read less often", `mytop_server_figure{server="db3:3306",figure="processlist_age_seconds"} 3`},
	} {
		key, val, _ := strings.Cut(tc.want, " ")
		want, _ := strconv.ParseFloat(val, 64)
		if v, ok := got[canonical(key)]; !ok || v != want {
			t.Errorf("%s: want %s, got %v (present %v) in\n%s", tc.name, tc.want, v, ok, out)
		}
	}
	for _, want := range []string{"process_cpu_seconds_total ", "go_goroutines ", "# EOF"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q: the monitor's own cost or the OpenMetrics end is missing", want)
		}
	}
	for k := range got {
		if strings.HasPrefix(k, "mytop_finding{") && strings.Contains(k, `server="db2:3306"`) {
			t.Errorf("db2 has no finding but %s is exported", k)
		}
	}
	if _, ok := got[canonical(`mytop_server_figure{server="db2:3306",figure="threads_active"}`)]; ok {
		t.Errorf("an unreachable server's processlist is exported as if current")
	}
	if _, ok := got[canonical(`mytop_server_figure{server="db1:3306",figure="processlist_age_seconds"}`)]; ok {
		t.Errorf("a processlist read every sample exports an age")
	}
}

// series reads the exposition's samples, keyed by name and sorted labels.
func series(out string) map[string]float64 {
	m := map[string]float64{}
	for _, line := range strings.Split(out, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err == nil {
			m[canonical(line[:i])] = v
		}
	}
	return m
}

// canonical sorts a series' labels, so tests need not know the writer's order.
func canonical(s string) string {
	name, labels, ok := strings.Cut(s, "{")
	if !ok {
		return s
	}
	parts := strings.Split(strings.TrimSuffix(labels, "}"), ",")
	sort.Strings(parts)
	return name + "{" + strings.Join(parts, ",") + "}"
}

// A finding that clears must leave /metrics, or the alert never resolves.
func TestExporterFindingClears(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 14, 2, 17, 0, time.UTC)
	e := New()
	e.Observe("db1", frame(t0, false, snapshot.Finding{ID: "row_lock_waits", Severity: snapshot.Warning}))
	if out := scrape(t, e); !strings.Contains(out, `id="row_lock_waits"`) {
		t.Fatalf("finding not exported:\n%s", out)
	}
	e.Observe("db1", frame(t0.Add(time.Second), false))
	if out := scrape(t, e); strings.Contains(out, `id="row_lock_waits"`) {
		t.Errorf("cleared finding still exported:\n%s", out)
	}
}

// A refused login is its own series, with the reason and the next attempt,
// so an alert tells it from a server that is down.
func TestExporterSaysARefusedLogin(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 14, 2, 17, 0, time.UTC)
	e := New()
	e.Observe("db1:3306", frame(t0, false))
	refused := frame(t0, true)
	refused.Snapshot.Server.LoginRefused = snapshot.LoginAccessDenied
	refused.Snapshot.Server.LoginRetry = t0.Add(2 * time.Minute)
	e.Observe("db2:3306", refused)
	out := scrape(t, e)
	got := series(out)
	if v, ok := got[canonical(`mytop_login_refused{server="db2:3306",reason="access_denied"}`)]; !ok || v != 1 {
		t.Errorf("no refused login for db2 in\n%s", out)
	}
	if v := got[canonical(`mytop_login_retry_seconds{server="db2:3306"}`)]; v != float64(t0.Add(2*time.Minute).Unix()) {
		t.Errorf("next attempt %v in\n%s", v, out)
	}
	for k := range got {
		if strings.HasPrefix(k, "mytop_login_") && strings.Contains(k, `server="db1:3306"`) {
			t.Errorf("db1 logs in, yet %s is exported", k)
		}
	}
}
