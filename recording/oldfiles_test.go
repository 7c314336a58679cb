package recording

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/internal/testfiles"
)

// TestOlderVersionFilesRead: files written by earlier builds read frame for
// frame as those builds read them, and still do after this build appends
// to them. testdata/vN-fake.mytop was written by the commit named below
// with newFakeServer(t, 42, 6), 10 frames, a keyframe every 4; its .sha256
// lists sha256(json.Marshal(Reader.Snapshot(i))) as that commit read each
// frame back. (A snapshot field added later that is always written changes
// the hashes; one with omitempty does not.) Version 1 is the bundled
// example (TestReadsAndAppendsToVersion1File).
func TestOlderVersionFilesRead(t *testing.T) {
	for _, c := range []struct {
		file    string
		version int
		commit  string
	}{
		{"v2-fake", 2, "f708fa7"},
		{"v3-fake", 3, "f400823"},
	} {
		t.Run(c.file, func(t *testing.T) {
			want := readHashes(t, filepath.Join("testdata", c.file+".sha256"))
			path := filepath.Join(t.TempDir(), c.file+".mytop")
			testfiles.CopyFile(t, filepath.Join("testdata", c.file+".mytop"), path)
			r := openT(t, path)
			if r.meta.SchemaVersion != c.version || r.Len() != len(want) {
				t.Fatalf("version %d with %d frames, want %d with %d", r.meta.SchemaVersion, r.Len(), c.version, len(want))
			}
			checkHashes(t, r, want)
			r.Close()

			w, err := Create(path, WriterOptions{Append: true})
			if err != nil {
				t.Fatal(err)
			}
			added := newFakeServer(t, 43, 6).frame(0)
			added.Snapshot.Time = added.Snapshot.Time.Add(3600e9)
			if err := w.Write(added); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			r = openT(t, path)
			if r.meta.SchemaVersion != schemaVersion || r.Len() != len(want)+1 {
				t.Fatalf("after append: version %d, %d frames", r.meta.SchemaVersion, r.Len())
			}
			checkHashes(t, r, want)
			got, err := r.Snapshot(len(want))
			if err != nil {
				t.Fatal(err)
			}
			sameSnapshot(t, len(want), got, added.Snapshot)
		})
	}
}

func readHashes(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

func checkHashes(t *testing.T, r *Reader, want []string) {
	t.Helper()
	for i, h := range want {
		s, err := r.Snapshot(i)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%x", sha256.Sum256(b)); got != h {
			t.Errorf("frame %d reads differently from the build that wrote it (%.300s)", i, b)
		}
	}
}
