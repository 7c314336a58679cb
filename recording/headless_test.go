package recording

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// record's consumer: every frame written and counted, a status line on
// SIGUSR1, the final line at the end, an end by signal no error; an existing
// file is refused before anything is written.
func TestHeadless(t *testing.T) {
	for _, keep := range []time.Duration{0, 10 * time.Minute} {
		path := filepath.Join(t.TempDir(), "r.mytop")
		h, err := CreateHeadless(path, WriterOptions{Interval: time.Second}, keep)
		if err != nil {
			t.Fatal(err)
		}
		var progress strings.Builder
		status := make(chan os.Signal, 1)
		emit := h.Start(&progress, status)
		for i := 0; i < 5; i++ {
			if i == 3 {
				status <- syscall.SIGUSR1
			}
			f := &snapshot.Frame{Snapshot: &snapshot.Snapshot{Time: recT0.Add(time.Duration(i) * time.Second), Status: map[string]string{"Uptime": "5"}}}
			if err := emit(f); err != nil {
				t.Fatal(err)
			}
		}
		if err := h.Finish(context.Canceled); err != nil {
			t.Errorf("keep %v: a run ended by a signal: %v", keep, err)
		}
		if err := h.Close(); err != nil {
			t.Fatal(err)
		}
		out := progress.String()
		if !strings.Contains(out, "\rstatus "+path+": 4 frames") || !strings.Contains(out, "\rrecorded "+path+": 5 frames") {
			t.Errorf("keep %v: progress %q", keep, out)
		}
		r, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if n := r.Len(); n == 0 || (keep == 0 && n != 5) {
			t.Errorf("keep %v: %d frames in the file", keep, n)
		}
		r.Close()
		if _, err := CreateHeadless(path, WriterOptions{}, keep); err == nil || !strings.Contains(err.Error(), "already exists") {
			t.Errorf("an existing file: %v", err)
		}
	}
}
