package recording

import (
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestRotateByAgeDropsWholeOldGroups(t *testing.T) {
	path := filepath.Join(t.TempDir(), "age.mytop")
	frames := writeFrames(t, path, 100, WriterOptions{KeyframeEvery: 10, MaxAge: 30 * time.Second})
	r := openT(t, path)
	// Group 60..69 is the oldest whose successor is younger than 30 s.
	if r.Len() != 40 || !r.index[0].keyframe {
		t.Fatalf("kept %d frames from seq %d (keyframe %v), want 40 from 60", r.Len(), r.index[0].seq, r.index[0].keyframe)
	}
	first, last := r.TimeRange()
	if span := last.Sub(first); span < 30*time.Second {
		t.Errorf("kept only %v, MaxAge is 30s", span)
	}
	got, err := r.Snapshot(0)
	if err != nil {
		t.Fatal(err)
	}
	sameSnapshot(t, 0, got, frames[60].Snapshot)
	var series, findingsBefore int
	r.db.QueryRow(`SELECT count(*) FROM series`).Scan(&series)
	r.db.QueryRow(`SELECT count(*) FROM findings WHERE first_seq < 60`).Scan(&findingsBefore)
	if series != 40 || findingsBefore != 0 {
		t.Errorf("series rows %d (want 40), findings of dropped frames %d", series, findingsBefore)
	}
}

func TestRotateKeepsVariablesInEffect(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vars.mytop")
	frames := writeFrames(t, path, 40, WriterOptions{KeyframeEvery: 5, MaxAge: 10 * time.Second})
	r := openT(t, path)
	got, err := r.Snapshot(0)
	if err != nil {
		t.Fatal(err)
	}
	if got.Variables == nil || !reflect.DeepEqual(got.Variables, frames[40-r.Len()].Snapshot.Variables) {
		t.Error("the variables stored with the first frame must survive rotation")
	}
}

func TestRotateBySize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "size.mytop")
	const limit = 600 << 10
	w, err := Create(path, WriterOptions{KeyframeEvery: 10, MaxSize: limit})
	if err != nil {
		t.Fatal(err)
	}
	srv := newFakeServer(t, 21, 100)
	for i := range 400 {
		if err := w.Write(srv.frame(i)); err != nil {
			t.Fatal(err)
		}
	}
	// Size counts free pages kept for reuse; the used pages stay under the limit.
	if used, _ := w.usedBytes(); used > limit {
		t.Errorf("used %d bytes, limit %d", used, limit)
	}
	if size := w.Size(); size > 2*limit {
		t.Errorf("file grows past the limit: %d bytes", size)
	}
	w.Close()
	r := openT(t, path)
	if r.Len() == 400 || r.Len() < 20 || !r.index[0].keyframe {
		t.Fatalf("kept %d frames, first keyframe %v", r.Len(), r.index[0].keyframe)
	}
	if _, err := r.Snapshot(r.Len() - 1); err != nil {
		t.Error(err)
	}
}
