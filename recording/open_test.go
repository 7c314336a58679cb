package recording

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/recording/importers"
	"github.com/mytop-go/mytop-go/snapshot"
)

// With several collections in one capture the default is the one with the
// most samples, and the user hears which and how to pick another; files not
// read are named.
func TestPickSessionRichestAndSaid(t *testing.T) {
	sess := func(name string, n int) importers.Session {
		s := importers.Session{Name: name}
		for range n {
			s.Snapshots = append(s.Snapshots, &snapshot.Snapshot{})
		}
		return s
	}
	c := &importers.Capture{Format: importers.FormatPtStalk, Path: "dir",
		Sessions: []importers.Session{sess("a", 2), sess("b", 30), sess("c", 2)},
		Skipped:  []string{"x.sample: a copy"}}
	s, err := pickSession(c, "")
	if err != nil || s.Name != "b" {
		t.Fatalf("picked %v, %v", s, err)
	}
	var out bytes.Buffer
	reportImport(&out, c, s)
	for _, want := range []string{`showing "b", the one with the most samples`, `--session: "a" (2 samples)`, "not read: x.sample: a copy"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, out.String())
		}
	}
	if s, err := pickSession(c, "c"); err != nil || s.Name != "c" {
		t.Errorf("--session c: %v, %v", s, err)
	}
}
