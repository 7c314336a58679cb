package report

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

func linkedFrame(sec int) *snapshot.Frame {
	scan := f("full_scan_update", snapshot.Critical, 0, "3 UPDATEs on app.m scan 400k rows each")
	scan.Threads = []int64{11, 12, 13}
	locks := f("table_lock_contention", snapshot.Warning, 0, "597 threads wait for table-level locks")
	locks.CausedBy, locks.CauseThreads = []string{"full_scan_update"}, scan.Threads
	qc := f("query_cache_contention", snapshot.Warning, 0, "40 threads wait for the query cache lock")
	qc.CausedBy = []string{"full_scan_update"}
	return frame(sec, scan, locks, qc)
}

func TestRootCausesInEveryFormat(t *testing.T) {
	b := NewBuilder("live")
	b.Add(frame(0, f("buffer_pool_miss", snapshot.Warning, 0, "bp")))
	b.Add(linkedFrame(1))
	b.Add(linkedFrame(2))
	r := b.Report()
	if len(r.RootCauses) != 1 {
		t.Fatalf("root causes %+v", r.RootCauses)
	}
	rc := r.RootCauses[0]
	if rc.ID != "full_scan_update" || !slices.Equal(rc.Threads, []int64{11, 12, 13}) ||
		!slices.Equal(rc.Effects, []string{"table_lock_contention", "query_cache_contention"}) {
		t.Errorf("root cause %+v", rc)
	}
	for _, e := range r.Findings {
		linked := e.ID == "table_lock_contention" || e.ID == "query_cache_contention"
		if linked != slices.Equal(e.CausedBy, []string{"full_scan_update"}) || e.CausedBy == nil {
			t.Errorf("%s caused_by %v", e.ID, e.CausedBy)
		}
	}

	var js bytes.Buffer
	if err := writeJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(strings.TrimSpace(js.String()), "{\n  \"root_causes\": [") {
		t.Errorf("json does not start with root_causes:\n%.200s", js.String())
	}
	var back struct {
		RootCauses []struct {
			ID      string   `json:"id"`
			Title   string   `json:"title"`
			Threads []int64  `json:"threads"`
			Effects []string `json:"effects"`
		} `json:"root_causes"`
		Findings []struct {
			ID       string   `json:"id"`
			CausedBy []string `json:"caused_by"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.RootCauses) != 1 ||
		back.RootCauses[0].Title == "" || back.Findings[0].CausedBy == nil {
		t.Errorf("json round trip %+v, %v", back, err)
	}

	for name, write := range map[string]func(*bytes.Buffer) error{
		"text":     func(w *bytes.Buffer) error { return writeText(w, r) },
		"markdown": func(w *bytes.Buffer) error { return writeMarkdown(w, r) },
	} {
		var out bytes.Buffer
		if err := write(&out); err != nil {
			t.Fatal(err)
		}
		first := strings.SplitN(out.String(), "\n", 2)[0]
		if name == "markdown" {
			first = strings.SplitN(out.String(), "\n\n", 3)[1]
		}
		if !strings.Contains(out.String(), "root cause: 3 UPDATEs on app.m scan 400k rows each; behind it: "+
			"597 threads wait for table-level locks; 40 threads wait for the query cache lock; act on threads 11, 12, 13") {
			t.Errorf("%s: no root-cause line:\n%s", name, out.String())
		}
		if name == "text" && !strings.HasPrefix(first, "ROOT CAUSE") {
			t.Errorf("text report must start with the root cause, starts %q", first)
		}
		if !strings.Contains(out.String(), "caused by") && !strings.Contains(out.String(), "Caused by") {
			t.Errorf("%s: effects do not say what caused them", name)
		}
	}
}

func TestNoRootCauseWithoutLinks(t *testing.T) {
	b := NewBuilder("live")
	b.Add(frame(0, f("buffer_pool_miss", snapshot.Warning, 0, "bp")))
	r := b.Report()
	if r.RootCauses == nil || len(r.RootCauses) != 0 {
		t.Errorf("want an empty list, got %#v", r.RootCauses)
	}
}
