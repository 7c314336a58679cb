package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/changes"
	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/internal/testfiles"
	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/snapshot"
)

// TestWhatChangedSinceHealthy records a throwaway MariaDB (performance_schema
// on) through a healthy stretch of point reads, then changes a variable with
// SET GLOBAL and starts a new statement that makes on-disk temporary tables,
// and records on into the same file. `report --baseline` over the healthy
// stretch, and `diff` of the healthy file against the whole, put the new
// fingerprint, the changed variable and the moved rates at the top.
func TestWhatChangedSinceHealthy(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	srv := testdb.Start(t, "--performance-schema=ON")
	srv.Exec(t, "CREATE DATABASE app", "CREATE DATABASE seq",
		"CREATE TABLE app.t (id INT PRIMARY KEY, c INT NOT NULL, note TEXT NOT NULL)",
		"INSERT INTO app.t SELECT seq, seq % 500, REPEAT('n', 200) FROM seq.seq_1_to_20000")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db := srv.DB(t)
	loop := func(q func(i int) string, pause time.Duration) {
		go func() {
			for i := 0; ctx.Err() == nil; i++ {
				if rows, err := db.QueryContext(ctx, q(i)); err == nil {
					rows.Close()
				}
				time.Sleep(pause)
			}
		}()
	}
	loop(func(i int) string { return fmt.Sprintf("SELECT note FROM app.t WHERE id = %d", 1+i%20000) }, 20*time.Millisecond)

	dir := t.TempDir()
	whole, healthy := filepath.Join(dir, "whole.mytop"), filepath.Join(dir, "healthy.mytop")
	record := func(args ...string) {
		cmd := exec.Command(bin, append([]string{"record", "--no-defaults", "-S", srv.Socket, "-uroot",
			"--interval", "500ms", "--statements-interval", "1s", "-o", whole}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("record: %v\n%s", err, out)
		}
	}
	record("--duration", "6s")
	testfiles.CopyFile(t, whole, healthy)

	srv.Exec(t, "SET GLOBAL tmp_memory_table_size = 16384")
	// A TEXT column in the GROUP BY's temporary table sends it to disk.
	loop(func(int) string { return "SELECT c, MAX(note), COUNT(*) FROM app.t GROUP BY c" }, 50*time.Millisecond)
	time.Sleep(time.Second)
	record("--append", "--duration", "8s")
	// The premise: the incident holds digest samples. Under a loaded CI
	// host the collector's reads can miss most of 8 s, and a window whose
	// digests cover only its healthy part lists none of the incident's
	// statements: record on, a few seconds at a time, until it holds three.
	for extra := 0; extra < 3; extra++ {
		n := countFrames(t, whole, 6*time.Second, true, hasDigestSample)
		if n >= 3 {
			break
		}
		t.Logf("the incident holds %d digest samples: recording 4 s more", n)
		record("--append", "--duration", "4s")
	}
	cancel()

	out := runBin(t, bin, "report", whole, "--baseline", "+0s..+6s", "--from", "+8s", "--format", "json")
	var r struct {
		Baseline struct{ Frames int }
		Changes  []changes.Change
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// The window holds the healthy frames of its 6 s: a loaded machine ticks
	// fewer than twelve there (four, once) and stretches the recording past
	// them, so count what was recorded within the window.
	healthyFrames := countFrames(t, healthy, 6*time.Second, false, nil)
	if r.Baseline.Frames < max(2, healthyFrames-1) {
		t.Errorf("baseline of %d frames, want the %d the healthy recording holds in its first 6 s", r.Baseline.Frames, healthyFrames)
	}
	wantOnTop(t, "report --baseline", r.Changes)

	out = runBin(t, bin, "diff", healthy, whole, "--format", "json")
	var d struct{ Changes []changes.Change }
	if err := json.Unmarshal(out, &d); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	wantOnTop(t, "diff", d.Changes)
}

// countFrames counts the frames of the recording at path within span of
// its first, or later than that with after, whose snapshot ok accepts (nil:
// every one).
func countFrames(t *testing.T, path string, span time.Duration, after bool, ok func(*snapshot.Snapshot) bool) int {
	t.Helper()
	r, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	first, _ := r.TimeRange()
	n := 0
	for i := range r.Len() {
		if r.Time(i).After(first.Add(span)) != after {
			continue
		}
		if ok != nil {
			s, err := r.Snapshot(i)
			if err != nil {
				t.Fatal(err)
			}
			if !ok(s) {
				continue
			}
		}
		n++
	}
	return n
}

// hasDigestSample: the snapshot carries a digest sample of its own.
func hasDigestSample(s *snapshot.Snapshot) bool {
	st := s.Statements
	return st != nil && st.Interval > 0 && len(st.Digests) > 0
}

// wantOnTop checks the first changes name the new statement and the changed
// variable, and moved status rates among the top (which counters move most
// varies with the machine's load: the temporary tables' Aria and Handler_tmp
// counters often outrank Created_tmp_disk_tables).
func wantOnTop(t *testing.T, what string, cs []changes.Change) {
	t.Helper()
	var top []string
	for i, c := range cs {
		if i < 12 {
			top = append(top, fmt.Sprintf("%s %s %s", c.Kind, c.Name, c.What))
		}
	}
	list := strings.Join(top, "\n")
	if len(cs) < 3 || cs[0].Kind != changes.KindStatement || !strings.Contains(strings.ToUpper(cs[0].Name), "GROUP BY") {
		t.Errorf("%s: first change is not the new GROUP BY statement:\n%s", what, list)
	}
	if !strings.Contains(list, "variable tmp_memory_table_size") {
		t.Errorf("%s: the changed variable is not near the top:\n%s", what, list)
	}
	if !slices.ContainsFunc(cs[:min(len(cs), 12)], func(c changes.Change) bool { return c.Kind == changes.KindStatus }) {
		t.Errorf("%s: no moved status rate among the top changes:\n%s", what, list)
	}
}

func runBin(t *testing.T, bin string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %v\n%s", args, err, stderr.String())
	}
	return out
}
