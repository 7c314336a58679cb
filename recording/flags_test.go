package recording

import (
	"flag"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// A command opens its one SOURCE argument, its --start reaching the
// importer; none or two SOURCEs is one line naming the command.
func TestSourceFlags(t *testing.T) {
	for _, args := range [][]string{nil, {"a", "b"}} {
		fs := flag.NewFlagSet("report", flag.ContinueOnError)
		sf := AddSourceFlags(fs)
		fs.Parse(args)
		if _, err := sf.Open(io.Discard); err == nil || !strings.HasPrefix(err.Error(), "report needs exactly one SOURCE") {
			t.Errorf("%q: %v", args, err)
		}
	}
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	sf := AddSourceFlags(fs)
	fs.Parse([]string{"--start", "soon", filepath.Join("importers", "testdata", "mysqladmin-ext-i1-r.txt")})
	if _, err := sf.Open(io.Discard); err == nil || !strings.HasPrefix(err.Error(), "--start: ") {
		t.Errorf("a capture with --start soon: %v", err)
	}
}
