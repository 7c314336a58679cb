package importers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testfiles"
)

func TestInnoDBTextConcatenated(t *testing.T) {
	c, err := Import("testdata/innodb/concatenated.txt", Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	if c.Format != FormatInnoDBText || len(c.Sessions) != 1 {
		t.Fatalf("format %s, %d sessions", c.Format, len(c.Sessions))
	}
	s := c.Sessions[0]
	// MariaDB 10.11 twice, then a MySQL 5.5 output with a yymmdd timestamp
	want := []struct {
		at       time.Time
		poolSize int64
	}{
		{time.Date(2010, 9, 4, 10, 24, 51, 0, time.UTC), 8191},
		{at("04:12:19"), 379},
		{at("04:12:28"), 379},
	}
	if len(s.Snapshots) != len(want) || s.Approximate || s.Problems.Count != 0 {
		t.Fatalf("%d snapshots, approximate %v, problems %+v", len(s.Snapshots), s.Approximate, s.Problems)
	}
	for i, w := range want {
		sn := s.Snapshots[i]
		if !sn.Time.Equal(w.at) || sn.InnoDB.BufferPool.SizePages != w.poolSize {
			t.Errorf("output %d at %v, pool %d pages; want %v, %d", i, sn.Time, sn.InnoDB.BufferPool.SizePages, w.at, w.poolSize)
		}
		if strings.Count(sn.InnoDB.Raw, monitorHeader) != 2 { // its header and its END line
			t.Errorf("output %d raw text holds %d monitor lines", i, strings.Count(sn.InnoDB.Raw, monitorHeader))
		}
	}
	if got := s.Snapshots[1].InnoDB.BufferPool.HitRate; got != 0.597 {
		t.Errorf("04:12:19 hit rate = %v, want 0.597", got)
	}
	// Lock waits come from the outputs themselves (innodb_locks.go).
	wantMissing := "no status counters,no processlist,no host figures,no server variables,no replica status,no stall clocks"
	if got := strings.Join(s.Missing, ","); got != wantMissing {
		t.Errorf("missing = %q", got)
	}
}

// A directory of outputs reads as one session; an output cut short (the 1 MB
// cap) still counts.
func TestInnoDBTextDirectory(t *testing.T) {
	dir := t.TempDir()
	testfiles.CopyFile(t, "testdata/innodb/percona-sample-002.txt", filepath.Join(dir, "b"))
	raw, err := os.ReadFile("testdata/innodb/concatenated.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a"), raw[:len(raw)/4], 0o600); err != nil {
		t.Fatal(err)
	}
	if f, err := detect(dir); err != nil || f != FormatInnoDBText {
		t.Fatalf("Detect = %q, %v", f, err)
	}
	c, err := Import(dir, Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	s := c.Sessions[0]
	if len(s.Snapshots) != 2 {
		t.Fatalf("%d snapshots, want 2", len(s.Snapshots))
	}
	if !s.Snapshots[1].InnoDB.Truncated || !s.Snapshots[1].Time.Equal(at("04:12:19")) {
		t.Errorf("cut output: truncated %v at %v", s.Snapshots[1].InnoDB.Truncated, s.Snapshots[1].Time)
	}
	if want := time.Date(2010, 3, 20, 15, 46, 24, 0, time.UTC); !s.Snapshots[0].Time.Equal(want) {
		t.Errorf("percona sample at %v, want %v", s.Snapshots[0].Time, want)
	}
}
