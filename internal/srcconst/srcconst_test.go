package srcconst

import (
	"go/ast"
	"os"
	"path/filepath"
	"testing"
)

func TestStrings(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\ntype kind string\n\nconst (\n\tkindA kind = \"a\"\n\tother = \"o\"\n\tnum = 3\n)\n"
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte("package p\n\nconst kindT kind = \"t\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ofKind := func(_ string, typ ast.Expr) bool {
		id, ok := typ.(*ast.Ident)
		return ok && id.Name == "kind"
	}
	got, files, err := Strings(dir, ofKind)
	if err != nil || len(got) != 1 || got["kindA"] != "a" || files["kindA"] != "p.go" {
		t.Errorf("Strings = %v %v %v; want kindA=a in p.go alone", got, files, err)
	}
}
