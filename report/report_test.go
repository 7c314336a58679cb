package report

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/snaptest"
	"github.com/mytop-go/mytop-go/snapshot"
)

var t0 = time.Date(2026, 12, 1, 4, 38, 31, 0, time.UTC)

func frame(sec int, findings ...snapshot.Finding) *snapshot.Frame {
	return snaptest.Frame(snaptest.At(t0.Add(time.Duration(sec)*time.Second), snaptest.MariaDB("10.11.19-MariaDB")), findings...)
}

func f(id string, sev snapshot.Severity, since int, title string) snapshot.Finding {
	return snapshot.Finding{ID: id, Severity: sev, Title: title, Since: t0.Add(time.Duration(since) * time.Second),
		Evidence: []string{title + " evidence"}, Advice: "do something"}
}

func TestEpisodes(t *testing.T) {
	b := NewBuilder("capture")
	b.Add(frame(0))
	b.Add(frame(1, f("table_lock_contention", snapshot.Warning, 1, "warn")))
	b.Add(frame(2, f("table_lock_contention", snapshot.Critical, 1, "crit"), f("buffer_pool_miss", snapshot.Warning, 2, "bp")))
	b.Add(frame(3, f("table_lock_contention", snapshot.Warning, 1, "warn again")))
	b.Add(frame(4)) // both clear
	b.Add(frame(5, f("table_lock_contention", snapshot.Warning, 5, "second episode")))
	r := b.Report()

	if r.Frames != 6 || !r.From.Equal(t0) || !r.To.Equal(t0.Add(5*time.Second)) {
		t.Fatalf("period: %d frames %v..%v", r.Frames, r.From, r.To)
	}
	want := []struct {
		id          string
		sev         snapshot.Severity
		first, last int
		frames      int
		title       string
	}{
		{"table_lock_contention", snapshot.Critical, 1, 3, 3, "crit"},
		{"buffer_pool_miss", snapshot.Warning, 2, 2, 1, "bp"},
		{"table_lock_contention", snapshot.Warning, 5, 5, 1, "second episode"},
	}
	if len(r.Findings) != len(want) {
		t.Fatalf("got %d episodes: %+v", len(r.Findings), r.Findings)
	}
	for i, w := range want {
		e := r.Findings[i]
		if e.ID != w.id || e.Severity != w.sev || e.Frames != w.frames || e.Title != w.title ||
			!e.From.Equal(t0.Add(time.Duration(w.first)*time.Second)) ||
			!e.To.Equal(t0.Add(time.Duration(w.last)*time.Second)) {
			t.Errorf("episode %d = %+v, want %+v", i, e, w)
		}
	}
}

func TestJSONContract(t *testing.T) {
	b := NewBuilder("x.mytop")
	b.Add(frame(0, f("buffer_pool_miss", snapshot.Warning, 0, "bp")))
	var buf bytes.Buffer
	if err := writeJSON(&buf, b.Report()); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"source", "from", "to", "frames", "server", "findings"} {
		if _, ok := got[k]; !ok {
			t.Errorf("missing %q in %s", k, buf.String())
		}
	}
	fs := got["findings"].([]any)
	first := fs[0].(map[string]any)
	for k, v := range map[string]any{"id": "buffer_pool_miss", "severity": "warning", "first_seen": "2026-12-01T04:38:31Z", "frames": 1.0} {
		if first[k] != v {
			t.Errorf("findings[0].%s = %v, want %v", k, first[k], v)
		}
	}
	if srv := got["server"].(map[string]any); srv["flavor"] != "mariadb" || srv["version"] != "10.11.19-MariaDB" {
		t.Errorf("server = %v", srv)
	}
}
