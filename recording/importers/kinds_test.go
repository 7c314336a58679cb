package importers

import (
	"go/ast"
	"testing"

	"github.com/mytop-go/mytop-go/internal/srcconst"
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

// Every kind declared is in kinds once, can be told, and is read: by a
// reader of its own or in a pile, which it names unless it goes beside.
func TestEveryKindHasItsReader(t *testing.T) {
	seen := map[fileKind]bool{}
	for _, s := range kinds {
		switch {
		case seen[s.kind]:
			t.Errorf("kind %q twice in kinds", s.kind)
		case s.sniff == nil:
			t.Errorf("kind %q has no sniff", s.kind)
		case (s.own == "") != (s.reader == nil):
			t.Errorf("kind %q: a format of its own goes with its reader (own %q)", s.kind, s.own)
		case s.own == "" && s.read == nil:
			t.Errorf("kind %q has no reader: neither its own nor a pile's", s.kind)
		case s.read != nil && s.pile == "" && !s.beside:
			t.Errorf("kind %q is read in a pile but names no pile format", s.kind)
		}
		seen[s.kind] = true
	}
	for name, value := range constsOf(t, "fileKind") {
		if k := fileKind(value); k != kindNone && !seen[k] {
			t.Errorf("%s (%q) is declared but not in kinds: no file would be told as one or read", name, value)
		}
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
