package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
)

// TestServeFleetToPrometheus runs `serve` over three throwaway servers, one
// with a lock pile-up, scrapes /metrics as Prometheus would, freezes one server
// and checks the other two keep updating, then lets a real Prometheus with the
// shipped alert rules fire on the frozen one.
func TestServeFleetToPrometheus(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	promBin := needCommand(t, "prometheus")
	srvs := []*testdb.Server{testdb.Start(t), testdb.Start(t), testdb.Start(t)}
	names := []string{"db-incident", "db-frozen", "db-calm"}
	hosts := filepath.Join(t.TempDir(), "fleet.txt")
	var lines []string
	for i, s := range srvs {
		lines = append(lines, fmt.Sprintf("localhost socket=%s name=%s", s.Socket, names[i]))
	}
	writeFile(t, hosts, "# three throwaway servers\n[client]\nuser=root\n\n"+strings.Join(lines, "\n")+"\n")
	holdRowLock(t, srvs[0], 4)

	addr := freeAddr(t)
	serve := startServe(t, bin, "--no-defaults", "--hosts", hosts, "--listen", addr, "--interval", "1s")
	defer serve()
	metricsURL := "http://" + addr + "/metrics"

	got := waitMetrics(t, metricsURL, 60*time.Second, func(m map[string]float64) bool {
		return m[findingKey("db-incident", "row_lock_waits")] == 1
	})
	for _, other := range names[1:] {
		if _, ok := got[findingKey(other, "row_lock_waits")]; ok {
			t.Errorf("row_lock_waits exported for %s, which has no lock waits", other)
		}
	}

	srvs[1].Pause(t)
	paused := time.Now()
	defer srvs[1].Resume(t)
	before := scrapeMetrics(t, metricsURL)
	got = waitMetrics(t, metricsURL, 20*time.Second, func(m map[string]float64) bool {
		return m[findingKey("db-frozen", "server_unresponsive")] == 1
	})
	t.Logf("server_unresponsive exported %.1f s after SIGSTOP", time.Since(paused).Seconds())
	time.Sleep(3 * time.Second)
	after := scrapeMetrics(t, metricsURL)
	for _, n := range []string{"db-incident", "db-calm"} {
		k := `mytop_frames_total{server="` + n + `"}`
		if d := after[k] - before[k]; d < 3 {
			t.Errorf("%s: %v frames while db-frozen was stopped (%.0f s); want about one a second", n, d,
				time.Since(paused).Seconds())
		}
	}
	if got[`mytop_server_up{server="db-frozen",version="`+versionOf(got, "db-frozen")+`"}`] != 0 {
		t.Errorf("db-frozen not exported as down")
	}

	prom := startPrometheus(t, promBin, addr)
	alert := waitAlert(t, prom, 90*time.Second, "MytopCriticalFinding", "db-frozen")
	t.Logf("Prometheus fired %s for db-frozen (%s) %.0f s after SIGSTOP", alert["alertname"], alert["id"],
		time.Since(paused).Seconds())
}

// findingKey is scrapeMetrics' severity-free key of a finding.
func findingKey(server, id string) string { return "finding:" + server + ":" + id }

// holdRowLock leaves one transaction holding a row and n sessions waiting for it.
func holdRowLock(t *testing.T, s *testdb.Server, n int) {
	t.Helper()
	s.Exec(t, "CREATE DATABASE app", "CREATE TABLE app.acct (id INT PRIMARY KEY, bal INT) ENGINE=InnoDB",
		"INSERT INTO app.acct VALUES (1, 100)", "SET GLOBAL innodb_lock_wait_timeout = 300")
	db := s.DB(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	holder, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { holder.Close() })
	for _, q := range []string{"BEGIN", "UPDATE app.acct SET bal = bal - 1 WHERE id = 1"} {
		if _, err := holder.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < n; i++ {
		go func() { _, _ = db.ExecContext(ctx, "UPDATE app.acct SET bal = bal + 1 WHERE id = 1") }()
	}
}

func startServe(t *testing.T, bin string, args ...string) (stop func()) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=/usr/bin:/bin"}
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			t.Logf("serve: %s", sc.Text())
		}
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("serve exited at start: %v", err)
		default:
		}
		if c, err := net.Dial("tcp", listenOf(args)); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not listen within 15 s")
		}
	}
	return func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve exited with %v after SIGTERM", err)
			}
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("serve did not stop within 10 s of SIGTERM")
		}
	}
}

func listenOf(args []string) string {
	for i, a := range args {
		if a == "--listen" && i+1 < len(args) {
			return args[i+1]
		}
	}
	return "127.0.0.1:9104"
}

// scrapeMetrics reads /metrics in OpenMetrics, keyed by series; findings get a
// severity-free key as well so tests need not know the severity.
func scrapeMetrics(t *testing.T, url string) map[string]float64 {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept", "application/openmetrics-text; version=1.0.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	m := map[string]float64{}
	for _, line := range strings.Split(string(b), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			continue
		}
		key, labels := line[:i], labelsOf(line[:i])
		m[key] = v
		if strings.HasPrefix(key, "mytop_finding{") {
			m["finding:"+labels["server"]+":"+labels["id"]] = v
		}
	}
	return m
}

func labelsOf(series string) map[string]string {
	out := map[string]string{}
	_, ls, ok := strings.Cut(series, "{")
	if !ok {
		return out
	}
	for _, kv := range strings.Split(strings.TrimSuffix(ls, "}"), ",") {
		k, v, _ := strings.Cut(kv, "=")
		out[k] = strings.Trim(v, `"`)
	}
	return out
}

// versionOf finds the version label of a server's up series.
func versionOf(m map[string]float64, server string) string {
	for k := range m {
		if strings.HasPrefix(k, "mytop_server_up{") && labelsOf(k)["server"] == server {
			return labelsOf(k)["version"]
		}
	}
	return ""
}

func waitMetrics(t *testing.T, url string, d time.Duration, ok func(map[string]float64) bool) map[string]float64 {
	t.Helper()
	deadline := time.Now().Add(d)
	var m map[string]float64
	for time.Now().Before(deadline) {
		if m = scrapeMetrics(t, url); m != nil && ok(m) {
			return m
		}
		time.Sleep(500 * time.Millisecond)
	}
	var keys []string
	for k := range m {
		if strings.HasPrefix(k, "finding:") || strings.HasPrefix(k, "mytop_server_up") {
			keys = append(keys, k)
		}
	}
	t.Fatalf("/metrics never met the condition within %v; findings and up series: %v", d, keys)
	return nil
}

func startPrometheus(t *testing.T, bin, target string) string {
	t.Helper()
	dir := t.TempDir()
	rules, err := filepath.Abs("../../examples/prometheus/alerts.yml")
	if err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files: [%q]\n"+
		"scrape_configs:\n  - job_name: mytop-go\n    static_configs:\n      - targets: [%q]\n", rules, target)
	writeFile(t, filepath.Join(dir, "prometheus.yml"), cfg)
	addr := freeAddr(t)
	cmd := exec.Command(bin, "--config.file="+filepath.Join(dir, "prometheus.yml"),
		"--storage.tsdb.path="+filepath.Join(dir, "data"), "--web.listen-address="+addr)
	log, _ := os.Create(filepath.Join(dir, "prometheus.log"))
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
		if t.Failed() {
			b, _ := os.ReadFile(log.Name())
			t.Logf("prometheus log:\n%s", b)
		}
	})
	return "http://" + addr
}

// waitAlert polls Prometheus' HTTP API until alertname fires for server.
func waitAlert(t *testing.T, prom string, d time.Duration, alertname, server string) map[string]string {
	t.Helper()
	deadline := time.Now().Add(d)
	var last string
	for time.Now().Before(deadline) {
		time.Sleep(time.Second)
		resp, err := http.Get(prom + "/api/v1/alerts")
		if err != nil {
			last = err.Error()
			continue
		}
		var body struct {
			Data struct {
				Alerts []struct {
					Labels map[string]string `json:"labels"`
					State  string            `json:"state"`
				} `json:"alerts"`
			} `json:"data"`
		}
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if err != nil {
			last = err.Error()
			continue
		}
		last = fmt.Sprint(body.Data.Alerts)
		for _, a := range body.Data.Alerts {
			if a.State == "firing" && a.Labels["alertname"] == alertname && a.Labels["server"] == server {
				return a.Labels
			}
		}
	}
	t.Fatalf("%s never fired for %s within %v; last answer: %s", alertname, server, d, last)
	return nil
}

func needCommand(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s not found: install Debian's prometheus package (.ci/run does)", name)
	}
	return p
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}
