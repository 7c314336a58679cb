package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBundledExampleShowsTheSeedRootCause: the recording the README's first
// command opens must still show the seed incident's root cause with this
// build's rules (re-make it with examples/record-incident.sh when it fails).
func TestBundledExampleShowsTheSeedRootCause(t *testing.T) {
	var stdout, stderr strings.Builder
	if code := realMain([]string{"report", "../../examples/incident.mytop", "--format", "json"}, &stdout, &stderr); code != 0 {
		t.Fatalf("report exit %d: %s", code, stderr.String())
	}
	var r struct {
		RootCauses []struct {
			ID      string   `json:"id"`
			Effects []string `json:"effects"`
			Threads []int64  `json:"threads"`
			Line    string   `json:"line"`
		} `json:"root_causes"`
	}
	if err := json.Unmarshal([]byte(stdout.String()), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.RootCauses) == 0 {
		t.Fatal("examples/incident.mytop shows no root cause: re-make it with examples/record-incident.sh")
	}
	rc := r.RootCauses[0]
	if rc.ID != "full_scan_update" || len(rc.Threads) == 0 || !strings.Contains(rc.Line, "scans the whole table") {
		t.Errorf("root cause %+v, want the full-scan UPDATE with its threads", rc)
	}
	for _, effect := range []string{"query_cache_contention", "table_lock_contention"} {
		if !strings.Contains(strings.Join(rc.Effects, " "), effect) {
			t.Errorf("root cause effects %v lack %s", rc.Effects, effect)
		}
	}
}
