package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestReportGolden pins the three report formats over a fixed recording of a
// reproduced incident, so a change in wording or numbers is a reviewed diff.
func TestReportGolden(t *testing.T) {
	for _, format := range []string{"text", "json", "markdown"} {
		t.Run(format, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := realMain([]string{"report", "testdata/incident.mytop", "--format", format}, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			golden := filepath.Join("testdata", "golden", "report."+format)
			if *update {
				if err := os.WriteFile(golden, stdout.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestReportGolden -update)", err)
			}
			if !bytes.Equal(stdout.Bytes(), want) {
				t.Errorf("report --format %s differs from %s:\n%s", format, golden, stdout.String())
			}
		})
	}
}
