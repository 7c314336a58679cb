// Package tmuxtest drives a real terminal program in a private tmux server, so
// end-to-end tests see the screen a user would see.
package tmuxtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Session is one tmux session running a command on its own tmux server.
type Session struct {
	t      testing.TB
	socket string
	name   string
}

// shortReason is what an end-to-end test says when `go test -short` skips it.
const shortReason = "drives the real binary in tmux, seconds a screen (-short)"

// Start runs argv in a new width×height tmux session. The session and its
// server are killed when the test ends. env entries are KEY=VALUE. Under
// -short it skips the test (shortReason).
func Start(t testing.TB, width, height int, env []string, argv ...string) *Session {
	t.Helper()
	if testing.Short() {
		t.Skip(shortReason)
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is not installed (apt-get install tmux)")
	}
	dir, err := os.MkdirTemp("", "tmuxtest")
	if err != nil {
		t.Fatal(err)
	}
	s := &Session{t: t, socket: filepath.Join(dir, "sock"), name: "e2e"}
	args := []string{"new-session", "-d", "-s", s.name, "-x", fmt.Sprint(width), "-y", fmt.Sprint(height)}
	for _, e := range env {
		args = append(args, "-e", e)
	}
	// The shell keeps the pane after the program ends and prints its exit
	// status, so a test can read its last words.
	args = append(args, shellJoin(argv)+`; echo "`+exitMarker+`$?]"; sleep 3600`)
	if out, err := s.tmux(args...); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	t.Cleanup(func() {
		_, _ = s.tmux("kill-server")
		os.RemoveAll(dir)
	})
	return s
}

func (s *Session) tmux(args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-S", s.socket, "-f", "/dev/null"}, args...)...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Tmux runs a tmux command on the session's server (set-option,
// show-buffer...) and returns its output.
func (s *Session) Tmux(args ...string) (string, error) { return s.tmux(args...) }

// Screen returns the visible pane text.
func (s *Session) Screen() string {
	out, err := s.tmux("capture-pane", "-p", "-t", s.name)
	if err != nil {
		return ""
	}
	return out
}

// Keys sends keys as tmux send-keys understands them ("q", "Enter", "C-c").
func (s *Session) Keys(keys ...string) {
	s.t.Helper()
	if out, err := s.tmux(append([]string{"send-keys", "-t", s.name}, keys...)...); err != nil {
		s.t.Fatalf("send-keys %q: %v: %s", keys, err, out)
	}
}

// Resize changes the window size, as a user dragging the terminal would.
func (s *Session) Resize(width, height int) {
	s.t.Helper()
	if out, err := s.tmux("resize-window", "-t", s.name, "-x", fmt.Sprint(width), "-y", fmt.Sprint(height)); err != nil {
		s.t.Fatalf("resize: %v: %s", err, out)
	}
}

// WaitFor polls the screen until every want string is on it, failing the
// test with the last screen after timeout.
func (s *Session) WaitFor(timeout time.Duration, want ...string) string {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		screen := s.Screen()
		if containsAll(screen, want) {
			return screen
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("after %v the screen lacks %q:\n%s", timeout, missing(screen, want), screen)
		}
		time.Sleep(150 * time.Millisecond)
	}
}

// WaitGone polls the screen until none of the gone strings is on it,
// failing the test with the last screen after timeout.
func (s *Session) WaitGone(timeout time.Duration, gone ...string) {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		screen := s.Screen()
		left := present(screen, gone)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("after %v the screen still shows %q:\n%s", timeout, left, screen)
		}
		time.Sleep(150 * time.Millisecond)
	}
}

// exitMarker precedes the exit status the wrapper shell prints.
const exitMarker = "[mytop-go exited with status "

// Exited reports whether the program in the pane has ended, and its status.
func (s *Session) Exited() (bool, string) {
	screen := s.Screen()
	i := strings.LastIndex(screen, exitMarker)
	if i < 0 {
		return false, ""
	}
	rest := screen[i+len(exitMarker):]
	if j := strings.IndexByte(rest, ']'); j >= 0 {
		return true, rest[:j]
	}
	return false, ""
}

// WaitExit waits until the program ends and returns its exit status.
func (s *Session) WaitExit(timeout time.Duration) string {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if dead, status := s.Exited(); dead {
			return status
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.t.Fatalf("program still running after %v:\n%s", timeout, s.Screen())
	return ""
}

func containsAll(screen string, want []string) bool {
	return len(missing(screen, want)) == 0
}

func missing(screen string, want []string) []string { return filter(screen, want, false) }

func present(screen string, texts []string) []string { return filter(screen, texts, true) }

// filter returns the texts whose presence on screen is onScreen.
func filter(screen string, texts []string, onScreen bool) []string {
	var m []string
	for _, w := range texts {
		if strings.Contains(screen, w) == onScreen {
			m = append(m, w)
		}
	}
	return m
}

// shellJoin quotes argv for the shell tmux runs the command with.
func shellJoin(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// ToggleHelp opens mytop-go's help with ? and closes it again, waiting for
// each: the dashboard still answers keys.
func (s *Session) ToggleHelp() {
	s.t.Helper()
	s.Keys("?")
	s.WaitFor(5*time.Second, "closes this help")
	s.Keys("?")
	s.WaitGone(5*time.Second, "closes this help")
}

// QuitCleanly checks help still opens and closes, then quits with q and
// fails the test unless the program exits with status 0.
func (s *Session) QuitCleanly() {
	s.t.Helper()
	s.ToggleHelp()
	s.Keys("q")
	if status := s.WaitExit(10 * time.Second); status != "0" {
		s.t.Errorf("exit status %s, want 0:\n%s", status, s.Screen())
	}
}
