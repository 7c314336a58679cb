package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/tmuxtest"
)

// The capture in testdata/shell-loops is the tablelock-bpmiss incident as
// shell loops logged it: 62 samples from 04:38:26 to 04:39:32 (04:38:32 and
// 04:38:38 missing), table_lock_contention from 04:38:31. Times are UTC.
var utcEnv = []string{"TZ=UTC"}

// importedRecording turns the capture into a recording with the real binary.
func importedRecording(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "tablelock.mytop")
	cmd := exec.Command(binary(t), "import", "testdata/shell-loops", "-o", out)
	cmd.Env = append(os.Environ(), utcEnv...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("import: %v\n%s", err, msg)
	}
	return out
}

func replayInTmux(t *testing.T, w, h int, args ...string) *tmuxtest.Session {
	env := append([]string{"HOME=" + t.TempDir()}, utcEnv...)
	return tmuxtest.Start(t, w, h, env, append([]string{binary(t), "replay"}, args...)...)
}

// clock is how the header shows a replayed moment.
func clock(hms string) string { return "REPLAY 2026-12-01 " + hms }

func TestReplayKeysInTmux(t *testing.T) {
	t.Parallel()
	s := replayInTmux(t, 160, 45, importedRecording(t))
	s.WaitFor(10*time.Second, "REPLAY 2026-12-01 04:38", "▶ ×1")

	s.Keys("Space")
	paused := headerClock(s.WaitFor(5*time.Second, "⏸ ×1"))
	time.Sleep(2500 * time.Millisecond)
	if now := headerClock(s.Screen()); now != paused {
		t.Errorf("paused replay moved from %q to %q", paused, now)
	}

	// n lands on the frame that raises the first finding: the signals
	// started at 04:38:31 and, persistence being time held by the frames'
	// clocks, the first to show (thread_cache_miss's info, shown while its
	// warning waits) does so at 04:38:33 (04:38:32 is missing from the capture).
	s.Keys("n")
	screen := s.WaitFor(10*time.Second, clock("04:38:33"), "began 04:38:31")
	if !strings.Contains(findingsPanel(screen), "thread_cache_miss") {
		t.Errorf("findings panel lacks thread_cache_miss after n:\n%s", screen)
	}

	// ] and [ move one recorded frame, across the hole at 04:38:38.
	for _, want := range []string{"04:38:34", "04:38:35", "04:38:36", "04:38:37", "04:38:39"} {
		s.Keys("]")
		s.WaitFor(5*time.Second, clock(want))
	}
	s.Keys("[")
	screen = s.WaitFor(5*time.Second, clock("04:38:37"))
	// Stepping back replays the history, so the table-lock finding raised
	// on the way stands.
	if !strings.Contains(findingsPanel(screen), "table_lock_contention") {
		t.Errorf("findings lost after a step back:\n%s", screen)
	}

	s.Keys("g")
	s.WaitFor(5*time.Second, "go to (")
	s.Keys("04:39:10", "Enter")
	s.WaitFor(10*time.Second, clock("04:39:10"))
	s.Keys("g", "-30s", "Enter")
	s.WaitFor(10*time.Second, clock("04:38:40"))
	s.Keys("g", "tomorrow", "Enter")
	s.WaitFor(5*time.Second, `go to: "tomorrow" is not a time`, clock("04:38:40"))

	s.Keys("q")
	if status := s.WaitExit(10 * time.Second); status != "0" {
		t.Errorf("exit status %s, want 0:\n%s", status, s.Screen())
	}
}

func TestReplaySpeedFlagShowsOnTimeline(t *testing.T) {
	t.Parallel()
	s := replayInTmux(t, 160, 45, "--speed", "4", "--at", "04:39:00", importedRecording(t))
	s.WaitFor(10*time.Second, "▶ ×4 04:39")
	s.Keys("-")
	s.WaitFor(5*time.Second, "▶ ×2 04:39", "speed ×2")
	s.Keys("q")
	s.WaitExit(10 * time.Second)
}

func TestReplayOfAnUnknownFileIsOneLine(t *testing.T) {
	t.Parallel()
	junk := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(junk, []byte("call the DBA at 9\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary(t), "replay", junk)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); !ok {
		t.Fatalf("want a non-zero exit, got %v", err)
	}
	msg := strings.TrimSpace(stderr.String())
	if strings.Contains(msg, "\n") || !strings.Contains(msg, "notes.txt") || !strings.Contains(msg, "not a capture") {
		t.Errorf("stderr = %q, want one line naming the file", msg)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout = %q", stdout.String())
	}
}

// TestTinyTerminalResizes starts in a 20×10 window, grows it and shrinks it
// back: the dashboard must redraw for each size and quit cleanly.
func TestTinyTerminalResizes(t *testing.T) {
	t.Parallel()
	s := replayInTmux(t, 20, 10, importedRecording(t))
	s.WaitFor(10*time.Second, "mytop-go")
	s.Resize(160, 45)
	s.WaitFor(10*time.Second, "REPLAY 2026-12-01", "Processlist", "Server /s")
	s.Resize(20, 10)
	deadline := time.Now().Add(10 * time.Second)
	for strings.Contains(s.Screen(), "Server /s") {
		if time.Now().After(deadline) {
			t.Fatalf("no redraw after shrinking:\n%s", s.Screen())
		}
		time.Sleep(150 * time.Millisecond)
	}
	if dead, status := s.Exited(); dead {
		t.Fatalf("exited (%s) while resizing:\n%s", status, s.Screen())
	}
	s.WaitFor(5*time.Second, "mytop-go")
	s.Keys("q")
	// The exit line wraps at 20 columns; tmux rejoins it when the window grows.
	time.Sleep(time.Second)
	s.Resize(160, 10)
	if status := s.WaitExit(10 * time.Second); status != "0" {
		t.Errorf("exit status %s, want 0:\n%s", status, s.Screen())
	}
}

// headerClock is the replayed moment the header shows.
func headerClock(screen string) string {
	line, _, _ := strings.Cut(screen, "\n")
	i := strings.Index(line, "REPLAY ")
	if i < 0 {
		return ""
	}
	return strings.TrimSpace(line[i:min(len(line), i+len("REPLAY 2006-01-02 15:04:05"))])
}

// findingsPanel is the screen from the top down to the processlist.
func findingsPanel(screen string) string {
	top, _, _ := strings.Cut(screen, "Processlist")
	return top
}
