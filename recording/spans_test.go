package recording

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestFindingSpansRankSeverity(t *testing.T) {
	path := filepath.Join(t.TempDir(), "spans.mytop")
	w, err := Create(path, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv := newFakeServer(t, 71, 3)
	sevs := []snapshot.Severity{snapshot.Warning, snapshot.Critical, snapshot.Warning}
	var onset time.Time
	for i, sev := range sevs {
		srv.step()
		s := srv.snapshot()
		if i == 0 {
			onset = s.Time
		}
		f := &snapshot.Frame{Snapshot: s, Findings: []snapshot.Finding{{ID: "long_transaction", Severity: sev, Since: onset}}}
		if err := w.Write(f); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	spans, err := openT(t, path).FindingSpans()
	if err != nil {
		t.Fatal(err)
	}
	if len(spans) != 1 || spans[0].Severity != snapshot.Critical || !spans[0].From.Equal(onset) ||
		spans[0].To.Sub(spans[0].From) != 2*time.Second {
		t.Errorf("spans = %+v, want one critical episode of 2s", spans)
	}
}
