package recording

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// writeFrames records n frames of a fake server and returns the frames given
// to the writer.
func writeFrames(t testing.TB, path string, n int, opts WriterOptions) []*snapshot.Frame {
	t.Helper()
	return writeServerFrames(t, path, newFakeServer(t, 1, 100), n, opts)
}

// writeServerFrames records n frames of srv and returns them.
func writeServerFrames(t testing.TB, path string, srv *fakeServer, n int, opts WriterOptions) []*snapshot.Frame {
	t.Helper()
	w, err := Create(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	frames := make([]*snapshot.Frame, n)
	for i := range frames {
		frames[i] = srv.frame(i)
		if err := w.Write(frames[i]); err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return frames
}

func openT(t testing.TB, path string) *Reader {
	t.Helper()
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// sameSnapshot compares through JSON-level equality and reflect, naming the
// first frame that differs.
func sameSnapshot(t *testing.T, i int, got, want *snapshot.Snapshot) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Fatalf("frame %d differs:\n got %.300s\nwant %.300s", i, g, w)
	}
}

func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rt.mytop")
	frames := writeFrames(t, path, 150, WriterOptions{KeyframeEvery: 60, Interval: time.Second, Version: "test"})
	r := openT(t, path)
	if r.Len() != len(frames) {
		t.Fatalf("Len = %d, want %d", r.Len(), len(frames))
	}
	for i, f := range frames {
		got, err := r.Snapshot(i)
		if err != nil {
			t.Fatal(err)
		}
		sameSnapshot(t, i, got, f.Snapshot)
	}
	first, last := r.TimeRange()
	if !first.Equal(frames[0].Snapshot.Time) || !last.Equal(frames[len(frames)-1].Snapshot.Time) {
		t.Errorf("TimeRange = %v..%v", first, last)
	}
	m := r.Meta()
	if m.Server.Version != "10.11.19-MariaDB" || m.Interval != time.Second || m.KeyframeEvery != 60 || m.SchemaVersion != schemaVersion || m.Redacted {
		t.Errorf("meta = %+v", m)
	}
}

func TestVariablesStoredOnlyWhenChanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vars.mytop")
	srv := newFakeServer(t, 1, 10)
	srv.varsEvery = 100
	frames := writeServerFrames(t, path, srv, 210, WriterOptions{KeyframeEvery: 30})
	r := openT(t, path)
	// tick 1 (first frame), 100 and 200 carry a change.
	if len(r.vars) != 3 {
		t.Fatalf("stored %d variable sets, want 3", len(r.vars))
	}
	for _, i := range []int{0, 98, 99, 150, 209} {
		got, err := r.Snapshot(i)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Variables, frames[i].Snapshot.Variables) {
			t.Errorf("frame %d: max_connections %q, want %q", i, got.Variables["max_connections"], frames[i].Snapshot.Variables["max_connections"])
		}
	}
}

func TestSeriesAndFindingsAnswerSQL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sql.mytop")
	frames := writeFrames(t, path, 30, WriterOptions{})
	r := openT(t, path)
	var n, withQPS int
	var maxConn int64
	if err := r.db.QueryRow(`SELECT count(*), count(qps), max(threads_connected) FROM series`).Scan(&n, &withQPS, &maxConn); err != nil {
		t.Fatal(err)
	}
	// Frames carry no Rates here, so qps is NULL while gauges are present.
	if n != 30 || withQPS != 0 || maxConn != 100 {
		t.Errorf("series rows=%d qps=%d max threads_connected=%d", n, withQPS, maxConn)
	}
	var findings int
	var evidence string
	if err := r.db.QueryRow(`SELECT sum(frames), max(evidence) FROM findings WHERE id = 'full_scan_update'`).Scan(&findings, &evidence); err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, f := range frames {
		want += len(f.Findings)
	}
	if findings != want || findings == 0 {
		t.Errorf("findings frames = %d, want %d", findings, want)
	}
	var ev []string
	if err := json.Unmarshal([]byte(evidence), &ev); err != nil || len(ev) != 1 {
		t.Errorf("evidence %q is not a JSON list: %v", evidence, err)
	}
}

func TestFindingsTableHasOneRowPerEpisode(t *testing.T) {
	path, frames := episodeRecording(t)
	r := openT(t, path)
	rows, err := r.db.Query(`SELECT since, shown, last_ts, first_seq, last_seq, frames, advice FROM findings ORDER BY since`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	type episode struct {
		since, shown, last, firstSeq, lastSeq, frames int64
		advice                                        string
	}
	var got []episode
	for rows.Next() {
		var e episode
		if err := rows.Scan(&e.since, &e.shown, &e.last, &e.firstSeq, &e.lastSeq, &e.frames, &e.advice); err != nil {
			t.Fatal(err)
		}
		got = append(got, e)
	}
	var want []episode
	for _, onset := range []int{5, 20} {
		want = append(want, episode{
			since: unixNanos(frames[onset].Findings[0].Since), shown: unixNanos(frames[onset].Snapshot.Time),
			last: unixNanos(frames[onset+4].Snapshot.Time), firstSeq: int64(onset), lastSeq: int64(onset + 4),
			frames: 5, advice: "find the blocker"})
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("episodes = %+v, want %+v", got, want)
	}
}

func TestMarkGapIsListedAndRotatedAway(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gap.mytop")
	w, err := Create(path, WriterOptions{KeyframeEvery: 5, MaxAge: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	srv := newFakeServer(t, 81, 3)
	for i := range 30 {
		f := srv.frame(i)
		if i == 2 || i == 25 {
			w.MarkGap(f.Snapshot.Time.Add(-time.Second), f.Snapshot.Time, "server unreachable")
		}
		if err := w.Write(f); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	gaps, err := openT(t, path).Gaps()
	if err != nil {
		t.Fatal(err)
	}
	// The gap before frame 2 went with the rotated frames.
	want := fakeStart.Add(26 * time.Second)
	if len(gaps) != 1 || !gaps[0].To.Equal(want) || gaps[0].Reason != "server unreachable" {
		t.Errorf("gaps = %+v, want one ending %v", gaps, want)
	}
}

func TestFindingEpisodeKeepsTheTextOfItsPeak(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ev.mytop")
	w, err := Create(path, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv := newFakeServer(t, 7, 3)
	sevs := []snapshot.Severity{snapshot.Warning, snapshot.Warning, snapshot.Critical, snapshot.Critical, snapshot.Warning}
	var since time.Time
	for i, sev := range sevs {
		srv.step()
		s := srv.snapshot()
		if i == 0 {
			since = s.Time
		}
		f := &snapshot.Frame{Seq: i, Snapshot: s, Findings: []snapshot.Finding{{ID: "row_lock_waits", Severity: sev,
			Title: "waits", Evidence: []string{fmt.Sprintf("frame %d", i)}, Since: since}}}
		if err := w.Write(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r := openT(t, path)
	var n, frameCount int
	var sev, evidence string
	err = r.db.QueryRow(`SELECT count(*), max(frames), max(severity), max(evidence) FROM findings`).
		Scan(&n, &frameCount, &sev, &evidence)
	if err != nil {
		t.Fatal(err)
	}
	// The first critical frame is the peak; the later warning does not replace it.
	if n != 1 || frameCount != 5 || sev != "critical" || evidence != `["frame 2"]` {
		t.Errorf("rows=%d frames=%d severity=%q evidence=%q, want 1, 5, critical, [\"frame 2\"]", n, frameCount, sev, evidence)
	}
}
