package recording

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testfiles"
)

func TestCreatedWithMode0600(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.mytop")
	w, err := Create(path, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv := newFakeServer(t, 1, 5)
	if err := w.Write(srv.frame(0)); err != nil {
		t.Fatal(err)
	}
	// While writing, the write-ahead log holds frames too: it must be private as well.
	for _, p := range []string{path, path + "-wal"} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v, want 0600", filepath.Base(p), st.Mode().Perm())
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); !os.IsNotExist(err) {
		t.Errorf("after Close the file must stand alone, -wal: %v", err)
	}
}

func TestCreateRefusesToOverwrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "o.mytop")
	if err := os.WriteFile(path, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(path, WriterOptions{}); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("err = %v, want refusal", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "precious" {
		t.Errorf("file changed to %q", b)
	}
	// Append to something that is not a recording is refused too.
	if _, err := Create(path, WriterOptions{Append: true}); !errors.Is(err, errNotRecording) {
		t.Errorf("append err = %v, want not a recording", err)
	}
}

func TestAppendContinuesRecording(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.mytop")
	srv := newFakeServer(t, 2, 10)
	var want []string
	for session := range 2 {
		w, err := Create(path, WriterOptions{Append: true, KeyframeEvery: 4, Redact: session == 0})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 6 {
			f := srv.frame(i)
			want = append(want, f.Snapshot.Time.String())
			if err := w.Write(f); err != nil {
				t.Fatal(err)
			}
		}
		w.Close()
	}
	r := openT(t, path)
	if r.Len() != 12 {
		t.Fatalf("Len = %d, want 12", r.Len())
	}
	for i := range 12 {
		s, err := r.Snapshot(i)
		if err != nil {
			t.Fatal(err)
		}
		if s.Time.String() != want[i] || s.Variables == nil {
			t.Errorf("frame %d: time %v vars %d", i, s.Time, len(s.Variables))
		}
	}
	if !r.index[6].keyframe {
		t.Error("first frame of an appending session must be a keyframe")
	}
	if r.Meta().Redacted {
		t.Error("meta must not claim redacted after a session without redaction")
	}
}

func TestOpenRejectsNonRecordings(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte("hello\n"), 0o600)
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, nil, 0o600)
	other := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE t(x)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, p := range []string{text, empty, other, dir} {
		_, err := Open(p)
		if err == nil || err.Error() != p+" is not a mytop-go recording" {
			t.Errorf("Open(%s) = %v", filepath.Base(p), err)
		}
	}
	if _, err := Open(filepath.Join(dir, "missing")); err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Error("Open must not create a missing file")
	}
}

func TestOpenRejectsNewerFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "n.mytop")
	writeFrames(t, path, 2, WriterOptions{})
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	db.Exec(`PRAGMA user_version = 99`)
	db.Close()
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "newer mytop-go") {
		t.Errorf("err = %v", err)
	}
}

// TestCloseDoesNotWaitForFollowingReader: a replay --follow holding the file
// must neither block the recorder's Close nor lose what it reads.
func TestCloseDoesNotWaitForFollowingReader(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.mytop")
	w, err := Create(path, WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv := newFakeServer(t, 61, 5)
	w.Write(srv.frame(0))
	r := openT(t, path)
	if _, err := r.Snapshot(0); err != nil {
		t.Fatal(err)
	}
	w.Write(srv.frame(1))
	if w.Size() < 8192 {
		t.Errorf("Size = %d", w.Size())
	}
	start := time.Now()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("Close took %v with a reader attached", el)
	}
	if n, err := r.Refresh(); err != nil || n != 1 {
		t.Fatalf("Refresh = %d, %v", n, err)
	}
	if _, err := r.Snapshot(1); err != nil {
		t.Error(err)
	}
}

// TestPageSize: a new recording gets pageSize pages; appending to an older
// file keeps its pages (SQLite fixes the size at creation), and both read.
func TestPageSize(t *testing.T) {
	fresh := filepath.Join(t.TempDir(), "new.mytop")
	writeFrames(t, fresh, 3, WriterOptions{})
	old := filepath.Join(t.TempDir(), "old.mytop")
	testfiles.CopyFile(t, "../cmd/mytop-go/testdata/incident.mytop", old)
	oldSize := pageSizeOf(t, old)
	w, err := Create(old, WriterOptions{Append: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(newFakeServer(t, 7, 5).frame(0)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want int
	}{{fresh, pageSize}, {old, oldSize}} {
		if got := pageSizeOf(t, c.path); got != c.want {
			t.Errorf("%s: page size %d, want %d", filepath.Base(c.path), got, c.want)
		}
		r := openT(t, c.path)
		if _, err := r.Snapshot(r.Len() - 1); err != nil {
			t.Errorf("%s: %v", filepath.Base(c.path), err)
		}
	}
	if oldSize == pageSize {
		t.Errorf("the version 1 file has %d-byte pages already: the test shows nothing", oldSize)
	}
}

func pageSizeOf(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`PRAGMA page_size`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
