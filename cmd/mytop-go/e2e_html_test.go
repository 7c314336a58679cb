package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
)

// chromiumFlags run Debian's Chromium headless as this machine allows (root:
// no sandbox) and keep it from reaching out on its own, so the only requests
// it makes are the page's.
var chromiumFlags = []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
	"--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars"}

// inChromium renders page in headless Chromium and returns the DOM it built.
// It fails on any console message of level warning or error (a refused
// request shows as one: the page's Content-Security-Policy forbids every
// fetch) and on any reference in the page to something outside it.
// A screenshot and the page printed to PDF are kept in the test's artifacts.
func inChromium(t *testing.T, page string) string {
	t.Helper()
	chromium := testdb.Tool(t, "chromium", "chromium", "chromium-browser")
	dir := t.TempDir()
	run := func(args ...string) (string, string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		argv := append(append([]string{}, chromiumFlags...), "--user-data-dir="+filepath.Join(dir, "profile"))
		cmd := exec.CommandContext(ctx, chromium, append(append(argv, args...), "file://"+page)...)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("chromium %v: %v\n%s", args, err, errb.String())
		}
		return out.String(), errb.String()
	}
	dom, logs := run("--enable-logging=stderr", "--v=0", "--dump-dom")
	for _, l := range strings.Split(logs, "\n") {
		if strings.Contains(l, "CONSOLE") || strings.Contains(l, "Uncaught") || strings.Contains(l, "Refused to") {
			t.Errorf("console: %s", l)
		}
	}
	// The policy turns a fetch into a console line; this finds a reference
	// that would fetch at all, as the page was built.
	if m := regexp.MustCompile(`(?i)\s(src|href)="[^"#]|url\(|@import`).FindString(dom); m != "" {
		t.Errorf("the page refers to something outside itself: %s", m)
	}
	art := t.ArtifactDir()
	shot := filepath.Join(art, "report.png")
	run("--window-size=1000,3200", "--screenshot="+shot)
	pdf := filepath.Join(art, "report.pdf")
	run("--no-pdf-header-footer", "--print-to-pdf="+pdf)
	if b, err := os.ReadFile(pdf); err != nil || len(regexp.MustCompile(`/Type\s*/Page[^s]`).FindAll(b, -1)) < 3 {
		t.Errorf("printed to PDF: %d bytes, err %v: want a page per section", len(b), err)
	}
	t.Logf("screenshot %s, PDF %s", shot, pdf)
	return dom
}

// domHas fails t unless the rendered DOM holds each pattern.
func domHas(t *testing.T, dom string, patterns ...string) {
	t.Helper()
	for _, p := range patterns {
		if !regexp.MustCompile(p).MatchString(dom) {
			t.Errorf("the rendered page has no %s", p)
		}
	}
}

// TestHTMLReportOfBundledExampleInChromium: the README's example as a
// postmortem renders with its charts, series, bands and sections, quietly.
func TestHTMLReportOfBundledExampleInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Chromium (-short)")
	}
	t.Parallel()
	bin := binary(t)
	page := filepath.Join(t.TempDir(), "incident.html")
	if b, err := exec.Command(bin, "report", "../../examples/incident.mytop", "--format", "html", "-o", page).CombinedOutput(); err != nil {
		t.Fatalf("report: %v\n%s", err, b)
	}
	dom := inChromium(t, page)
	domHas(t, dom,
		`<section id="summary">`, `Root cause`,
		`data-chart="findings"`, `class="band lane" data-finding="full_scan_update" data-severity="critical"`,
		`data-chart="load"[^>]*>.*data-series="query_cache"`, `data-chart="cpu"`, `data-chart="runqueue"`,
		`data-chart="disk_util"`, `class="band" data-severity="critical"`, `class="marker"`,
		`<article class="finding critical" data-finding="full_scan_update">`,
		`<section id="statements">`, `<section id="locks">`, `<div class="picture"><svg`)
}

// TestHTMLReportOfRecordedLockPileupInChromium: a pile-up recorded live from
// a real server becomes a postmortem whose lock tree names the real holder.
func TestHTMLReportOfRecordedLockPileupInChromium(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	srv := testdb.Start(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	holder := lockPileup(t, ctx, srv, 5)
	dir := t.TempDir()
	rec := filepath.Join(dir, "locks.mytop")
	recordPileup(t, bin, srv, rec)
	cancel()
	page := filepath.Join(dir, "locks.html")
	if b, err := exec.Command(bin, "report", rec, "--format", "html", "-o", page).CombinedOutput(); err != nil {
		t.Fatalf("report: %v\n%s", err, b)
	}
	dom := inChromium(t, page)
	domHas(t, dom, `class="band lane" data-finding="metadata_lock_pileup"`, `data-chart="load"[^>]*>.*data-series="metadata_lock"`,
		`(?s)<h3>metadata_lock_pileup</h3>.*?<td class="n">`+strconv.FormatInt(holder, 10)+`</td><td>root</td>`, `<div class="picture"><svg`)
}
