package recording

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

func TestServerFilesOnePerServerAndDay(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fleet")
	sf := &ServerFiles{Dir: dir, Opts: WriterOptions{Interval: time.Second}}
	// Ten frames either side of local midnight, for two servers.
	midnight := time.Date(2026, 12, 2, 0, 0, 0, 0, time.Local)
	for i := -10; i < 10; i++ {
		at := midnight.Add(time.Duration(i) * time.Second)
		for _, server := range []string{"db1.example:3306", "[::1]:3308"} {
			f := &snapshot.Frame{Snapshot: &snapshot.Snapshot{Time: at, Status: map[string]string{"Uptime": "5"}}}
			if err := sf.Write(server, f); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := sf.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{
		"db1.example_3306-20261201.mytop", "db1.example_3306-20261202.mytop",
		"___1__3308-20261201.mytop", "___1__3308-20261202.mytop",
	} {
		r, err := Open(filepath.Join(dir, name))
		if err != nil {
			entries, _ := os.ReadDir(dir)
			t.Fatalf("%s: %v (directory holds %v)", name, err, entries)
		}
		if n := r.Len(); n != 10 {
			t.Errorf("%s: %d frames, want 10", name, n)
		}
		r.Close()
	}
}

// A restarted serve continues the day's file instead of refusing it.
func TestServerFilesContinueTheDay(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 12, 1, 14, 0, 0, 0, time.Local)
	for run := 0; run < 2; run++ {
		sf := &ServerFiles{Dir: dir, KeepAround: time.Minute}
		for i := 0; i < 3; i++ {
			f := &snapshot.Frame{Snapshot: &snapshot.Snapshot{Time: at.Add(time.Duration(run*10+i) * time.Second)},
				Findings: []snapshot.Finding{{ID: "row_lock_waits", Severity: snapshot.Warning}}}
			if err := sf.Write("db1", f); err != nil {
				t.Fatal(err)
			}
		}
		if err := sf.Close(); err != nil {
			t.Fatal(err)
		}
	}
	r, err := Open(sf0(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if n := r.Len(); n != 6 {
		t.Errorf("%d frames after two runs, want 6", n)
	}
}

func sf0(dir string) string { return filepath.Join(dir, "db1-20261201.mytop") }

// A directory that cannot be made stops the recording, said once per server,
// and every frame still reaches the metrics.
func TestServerFilesTeeSaysAFailureOnce(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	sf := &ServerFiles{Dir: filepath.Join(blocker, "fleet")}
	var log strings.Builder
	observed := 0
	tee := sf.Tee(func(string, *snapshot.Frame) { observed++ }, &log)
	for i := 0; i < 3; i++ {
		for _, server := range []string{"db1:3306", "db2:3306"} {
			tee(server, &snapshot.Frame{Snapshot: &snapshot.Snapshot{Time: time.Now()}})
		}
	}
	if observed != 6 {
		t.Errorf("%d frames observed, want 6", observed)
	}
	if n := strings.Count(log.String(), "recording stopped"); n != 2 || !strings.Contains(log.String(), "mytop-go: db2:3306: recording stopped: recording directory:") {
		t.Errorf("log %q: want one line per server", log.String())
	}
}
