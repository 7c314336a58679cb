package ui

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestUIKnowsOnlyFrames keeps the dashboard a consumer of Frames: it never
// imports the packages that make them (a view that needs a conclusion finds
// it in the frame or in snapshot's domain functions), so live and replay
// cannot differ in what it shows.
func TestUIKnowsOnlyFrames(t *testing.T) {
	banned := []string{"analyzers", "collectors", "recording", "pipeline", "fleet", "exporter", "report"}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			for _, b := range banned {
				if path == "github.com/mytop-go/mytop-go/"+b || strings.HasPrefix(path, "github.com/mytop-go/mytop-go/"+b+"/") {
					t.Errorf("%s imports %s: the UI knows only Frames", f, path)
				}
			}
		}
	}
}
