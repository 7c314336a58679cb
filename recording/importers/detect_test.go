package importers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mytop-go/mytop-go/internal/testfiles"
)

func TestDetect(t *testing.T) {
	renamed := filepath.Join(t.TempDir(), "capture.bin") // content decides, not the name
	testfiles.CopyFile(t, "testdata/shell-loops/processlist.log", renamed)
	tests := []struct {
		path string
		want Format
	}{
		{"testdata/shell-loops", FormatShellLoops},
		{"testdata/shell-loops/vmstat.log", FormatShellLoops},
		{renamed, FormatShellLoops},
		{"testdata/ptstalk", FormatPtStalk},
		{"testdata/ptstalk/2026_12_01_04_38_31-processlist", FormatPtStalk},
		{"testdata/ptstalk/2026_12_01_04_38_31-diskstats", FormatPtStalk},
		{"testdata/mysqladmin-ext-i1-r.txt", FormatMysqladmin},
		{"testdata/ptstalk/2026_12_01_04_38_31-mysqladmin", FormatMysqladmin},
	}
	for _, tc := range tests {
		got, err := detect(tc.path)
		if err != nil || got != tc.want {
			t.Errorf("Detect(%s) = %q, %v; want %q", tc.path, got, err, tc.want)
		}
	}
}

func TestDetectRejects(t *testing.T) {
	empty := t.TempDir()
	unrelated := t.TempDir()
	if err := os.WriteFile(filepath.Join(unrelated, "notes.txt"), []byte("shopping list\nmilk\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{empty, unrelated, filepath.Join(unrelated, "notes.txt"), "testdata/shell-loops/stats.sh", "testdata/no-such-file"} {
		_, err := Import(path, Options{})
		if err == nil {
			t.Errorf("Import(%s) succeeded", path)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, filepath.Base(path)) {
			t.Errorf("Import(%s) error %q: want one line naming the path", path, msg)
		}
	}
}
