package importers

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fuzzImport writes text as a capture file and imports it: whatever the bytes,
// the import must return sessions or an error, never panic.
func fuzzImport(t *testing.T, name, text string, opts Options) {
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Import(path, opts)
	if err != nil {
		return
	}
	for _, s := range c.Sessions {
		for i := 1; i < len(s.Snapshots); i++ {
			if !s.Snapshots[i].Time.After(s.Snapshots[i-1].Time) {
				t.Fatalf("snapshot %d at %v not after %v", i, s.Snapshots[i].Time, s.Snapshots[i-1].Time)
			}
		}
	}
}

func seedHead(f *testing.F, path string, n int) {
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b[:min(n, len(b))]))
}

func FuzzShellLoops(f *testing.F) {
	seedHead(f, "testdata/shell-loops/vmstat.log", 2000)
	seedHead(f, "testdata/shell-loops/stats.log", 3000)
	seedHead(f, "testdata/shell-loops/processlist.log", 3000)
	f.Add("2026/12/01 04:38:26 Id\tUser\n2026/12/01 04:38:26 1\t2\n")
	f.Fuzz(func(t *testing.T, text string) {
		fuzzImport(t, "log", text, Options{Location: time.UTC})
	})
}

func FuzzMysqladmin(f *testing.F) {
	seedHead(f, "testdata/mysqladmin-ext-i1-r.txt", 4000)
	f.Add("+--+\n| Variable_name | Value |\n+--+\n| Uptime | 5 |\n+--+\n\n+--+\n| Variable_name | Value |\n| Uptime | 1 |\n| X | -9223372036854775808 |\n")
	f.Fuzz(func(t *testing.T, text string) {
		fuzzImport(t, "ext", text, Options{Start: time.Unix(1796099906, 0), Location: time.UTC})
	})
}
