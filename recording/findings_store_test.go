package recording

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// writeEpisode writes n frames that all carry one episode of a finding.
func writeEpisode(t *testing.T, w *Writer, srv *fakeServer, n int, since time.Time) {
	t.Helper()
	for range n {
		srv.step()
		f := &snapshot.Frame{Snapshot: srv.snapshot(), Findings: []snapshot.Finding{
			{ID: "long_transaction", Severity: snapshot.Warning, Title: "old trx", Since: since}}}
		if err := w.Write(f); err != nil {
			t.Fatal(err)
		}
	}
}

func episodeRows(t *testing.T, path string) (rows, frames, firstSeq int64) {
	t.Helper()
	r := openT(t, path)
	if err := r.db.QueryRow(`SELECT count(*), sum(frames), min(first_seq) FROM findings`).
		Scan(&rows, &frames, &firstSeq); err != nil {
		t.Fatal(err)
	}
	return rows, frames, firstSeq
}

func TestAppendingContinuesTheOpenEpisode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "append.mytop")
	srv := newFakeServer(t, 5, 3)
	since := fakeStart
	for i, opts := range []WriterOptions{{}, {Append: true}} {
		w, err := Create(path, opts)
		if err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
		writeEpisode(t, w, srv, 4, since)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if rows, frames, _ := episodeRows(t, path); rows != 1 || frames != 8 {
		t.Errorf("rows=%d frames=%d, want one episode of 8 frames", rows, frames)
	}
}

func TestRotationTrimsAStraddlingEpisode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rot.mytop")
	w, err := Create(path, WriterOptions{KeyframeEvery: 5, MaxAge: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	writeEpisode(t, w, newFakeServer(t, 6, 3), 30, fakeStart)
	w.Close()
	r := openT(t, path)
	first := r.index[0].seq
	spans, err := r.FindingSpans()
	if err != nil || len(spans) != 1 {
		t.Fatalf("spans = %+v, %v", spans, err)
	}
	rows, frames, firstSeq := episodeRows(t, path)
	if rows != 1 || firstSeq != first || frames != int64(r.Len()) || !spans[0].Shown.Equal(r.Time(0)) {
		t.Errorf("rows=%d frames=%d first_seq=%d shown=%v; want 1 row of %d frames from seq %d shown %v",
			rows, frames, firstSeq, spans[0].Shown, r.Len(), first, r.Time(0))
	}
}
