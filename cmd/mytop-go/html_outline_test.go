package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// htmlOutline is the structure of an HTML report, without its numbers: the
// sections, the charts with their series and the findings' lanes, one line
// each, so a golden file pins what the page shows and not where a line bends.
func htmlOutline(page string) string {
	tag := regexp.MustCompile(`<section id="([^"]+)"|<svg class="chart[^"]*" data-chart="([^"]+)"|<path class="series [a-z]+" data-series="([^"]+)"|<rect class="band lane" data-finding="([^"]+)" data-severity="([^"]+)"|<article class="finding [a-z]+" data-finding="([^"]+)"|<line class="marker"|<div class="picture">`)
	var b strings.Builder
	last := ""
	for _, m := range tag.FindAllStringSubmatch(page, -1) {
		var line string
		switch {
		case m[1] != "":
			line = "section " + m[1]
		case m[2] != "":
			line = "  chart " + m[2]
		case m[3] != "":
			line = "    series " + m[3]
		case m[4] != "":
			line = "    lane " + m[4] + " " + m[5]
		case m[6] != "":
			line = "  finding " + m[6]
		case strings.HasPrefix(m[0], "<line"):
			line = "    onset marker"
		default:
			line = "  dashboard picture"
		}
		if line != last {
			b.WriteString(line + "\n")
		}
		last = line
	}
	return b.String()
}

// TestReportHTMLGolden pins the HTML report's structure over the fixed
// recording: its sections, charts, series, lanes and findings.
func TestReportHTMLGolden(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := realMain([]string{"report", "testdata/incident.mytop", "--format", "html"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	page := stdout.String()
	for _, banned := range []string{"<script", "<link", "<img", "@import", "url("} {
		if strings.Contains(page, banned) {
			t.Errorf("the page holds %q: it must need nothing outside itself", banned)
		}
	}
	got := htmlOutline(page)
	golden := filepath.Join("testdata", "golden", "report.html.outline")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestReportHTMLGolden -update)", err)
	}
	if got != string(want) {
		t.Errorf("report --format html's outline differs from %s:\n%s", golden, got)
	}
}
