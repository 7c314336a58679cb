package importers

import (
	"fmt"
	"go/ast"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/srcconst"
	"github.com/mytop-go/mytop-go/snapshot"
)

// constsOf lists the constants of the package declared with type typ.
func constsOf(t *testing.T, typ string) map[string]string {
	t.Helper()
	out, _, err := srcconst.Strings(".", func(_ string, texpr ast.Expr) bool {
		id, ok := texpr.(*ast.Ident)
		return ok && id.Name == typ
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Every kind declared is in kinds once, can be told (by its content, or a
// collection by its files' names), and is read: by a reader of its own or in
// a pile, which it names unless it goes beside.
func TestEveryKindHasItsReader(t *testing.T) {
	seen := map[fileKind]bool{}
	for _, s := range kinds {
		collection := s.named != nil && s.pile != "" // a pile of files named as its parts
		switch {
		case seen[s.kind]:
			t.Errorf("kind %q twice in kinds", s.kind)
		case (s.sniff == nil) == (s.named == nil):
			t.Errorf("kind %q: want a sniff (a kind told by content) or a name test (a collection), one of them", s.kind)
		case (s.own == "") != (s.reader == nil):
			t.Errorf("kind %q: a format of its own goes with its reader (own %q)", s.kind, s.own)
		case s.own == "" && s.read == nil && !collection:
			t.Errorf("kind %q has no reader: neither its own nor a pile's", s.kind)
		case s.read != nil && s.pile == "" && !s.beside:
			t.Errorf("kind %q is read in a pile but names no pile format", s.kind)
		case s.takes != nil && s.own == "":
			t.Errorf("kind %q gathers a directory but has no reader of its own", s.kind)
		}
		seen[s.kind] = true
	}
	for name, value := range constsOf(t, "fileKind") {
		if k := fileKind(value); k != kindNone && !seen[k] {
			t.Errorf("%s (%q) is declared but not in kinds: no file would be told as one or read", name, value)
		}
	}
}

// Every row of kinds reads its fixture in testdata: a file of it is told
// as one (a collection's by its name), the capture imports into frames,
// and every part those frames show is one the row declares, every other
// part marked not captured. A row that goes beside shows its parts, or
// names its file in a note.
func TestEveryKindReadsItsFixture(t *testing.T) {
	for _, s := range kinds {
		t.Run(string(s.kind), func(t *testing.T) {
			if s.fixture == "" {
				t.Fatal("no fixture: give the row a capture of this kind in testdata")
			}
			path := filepath.Join("testdata", s.fixture)
			files, _, err := listFiles(path)
			if err != nil {
				t.Fatal(err)
			}
			var mine []string
			for _, f := range files {
				if s.sniff != nil && classify(f).kind == s.kind || s.named != nil && s.named(filepath.Base(f)) {
					mine = append(mine, filepath.Base(f))
				}
			}
			if len(mine) == 0 {
				t.Fatalf("no file of %s is told as %q", path, s.kind)
			}
			c, err := Import(path, Options{Location: time.UTC, Start: at("12:00:00")})
			if err != nil {
				t.Fatal(err)
			}
			if !s.beside && c.Format != s.own && c.Format != s.pile {
				t.Errorf("%s read as %s, want %q or %q", path, c.Format, s.own, s.pile)
			}
			if len(c.Sessions) == 0 || len(c.Sessions[0].Snapshots) == 0 {
				t.Fatalf("%s: no frames", path)
			}
			sess := c.Sessions[0]
			checkFixtureParts(t, s, sess.Snapshots[0])
			if s.beside && len(s.parts) == 0 && !notesName(sess.Notes, mine) {
				t.Errorf("%s: nothing shows %s was read (no part, no note naming %v): %q", path, s.kind, mine, sess.Notes)
			}
		})
	}
}

// checkFixtureParts: the frame shows every part s declares that the
// fixture holds, and no other.
func checkFixtureParts(t *testing.T, s kindSpec, first *snapshot.Snapshot) {
	t.Helper()
	shown := 0
	for _, p := range snapshot.Parts {
		st, ok := first.Collectors[p.Collector]
		present := !ok || st.Unavailable == ""
		declared := slices.Contains(s.parts, p.Collector)
		switch {
		case present && declared:
			shown++
		case present && !s.beside:
			t.Errorf("its frames show %s, which the row does not declare", p.Collector)
		case !present && declared && s.beside:
			t.Errorf("%s, which the row declares, is marked %q", p.Collector, st.Unavailable)
		case !present && st.Unavailable != notCaptured:
			t.Errorf("%s is missing but marked %q, not %q", p.Collector, st.Unavailable, notCaptured)
		}
	}
	if len(s.parts) > 0 && shown == 0 {
		t.Errorf("none of the parts the row declares (%v) shows", s.parts)
	}
}

func notesName(notes, names []string) bool {
	for _, n := range notes {
		for _, name := range names {
			if strings.Contains(n, name) {
				return true
			}
		}
	}
	return false
}

// The parts a capture can carry (those snapshot.Parts gives a Captured
// word) and the parts the rows of kinds declare are the same set: a part a
// new format brings is named when a capture lacks it, never "found
// nothing". The timeline tells present any part it placed, whatever its
// name (timeline.place), and TestEveryKindReadsItsFixture checks each row's
// parts show.
func TestCapturedPartsAreCarried(t *testing.T) {
	carried := map[snapshot.CollectorName]bool{}
	for _, s := range kinds {
		for _, p := range s.parts {
			carried[p] = true
		}
	}
	for _, p := range snapshot.Parts {
		if c := p.Captured != ""; c != carried[p.Collector] {
			t.Errorf("%s: a Captured word %v, declared by a row of kinds %v: want both or neither",
				p.Collector, c, carried[p.Collector])
		}
	}
}

// A part no capture carried before is placed, carried into the seconds its
// loop skipped, told present and marked "not in this capture" where it is
// not, with no word of it in the timeline.
func TestTimelinePlacesAnyPart(t *testing.T) {
	tl := newTimeline(time.UTC)
	tl.status[100] = map[string]string{"Uptime": "1"}
	tl.status[101] = map[string]string{"Uptime": "2"}
	tl.status[102] = map[string]string{"Uptime": "3"}
	tl.status[105] = map[string]string{"Uptime": "6"}
	ps := &snapshot.Pressure{CPU: snapshot.Stall{SomeUS: 7}}
	tl.place(snapshot.CollectorPressure, 100, func(s *snapshot.Snapshot) { s.Pressure = ps })
	snaps, missing := tl.build()
	if slices.Contains(missing, "no stall clocks") {
		t.Errorf("missing %q: the placed part is named missing", missing)
	}
	got := func(i int) string {
		st := snaps[i].Collectors[snapshot.CollectorPressure]
		return fmt.Sprintf("held %v, stale %v %q", snaps[i].Pressure == ps, st.Stale, st.Error)
	}
	want := []string{
		`held true, stale false ""`,
		`held true, stale true "carried from 00:01:40"`,
		`held false, stale true "no sample in this second"`,
		`held false, stale true "no sample in this second"`,
	}
	for i, w := range want {
		if g := got(i); g != w {
			t.Errorf("second %d: %s, want %s", i, g, w)
		}
	}
	if _, missing := newTimeline(time.UTC).build(); !slices.Contains(missing, "no stall clocks") {
		t.Errorf("a timeline without it: missing %q, want it named", missing)
	}
}

// Every format detect can name has a reader.
func TestEveryFormatHasAReader(t *testing.T) {
	formats := constsOf(t, "Format")
	if len(formats) == 0 {
		t.Fatal("no Format constants found")
	}
	for name, value := range formats {
		if readerOf(Format(value)) == nil {
			t.Errorf("%s (%q) has no reader", name, value)
		}
	}
}

// A kind a pile has no reader for is an error, not a file with no samples.
func TestPileKindWithoutReaderFails(t *testing.T) {
	p := &pileReader{}
	if _, err := p.readFile(sniffed{path: "x", kind: kindShellLoops}); err == nil {
		t.Error("a shell-loop log read as a pile file: want an error")
	}
	if _, err := p.readFile(sniffed{path: "x", kind: "no-such-kind"}); err == nil {
		t.Error("an unknown kind read as a pile file: want an error")
	}
}
