package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/tmuxtest"
)

// readmeCommands returns the commands of the README's "First two commands"
// block, without their comments, so this test runs what a newcomer reads.
func readmeCommands(t *testing.T, root string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)## First two commands\\s*```sh\\n(.*?)```").FindSubmatch(b)
	if m == nil {
		t.Fatal("README has no \"First two commands\" sh block")
	}
	var cmds []string
	for _, line := range strings.Split(string(m[1]), "\n") {
		if c := strings.TrimSpace(strings.SplitN(line, "#", 2)[0]); c != "" {
			cmds = append(cmds, c)
		}
	}
	return cmds
}

// TestReadmeFirstCommandShowsTheDashboard runs the README's first command in a
// real terminal, from the repository root, and finds the bundled incident on
// screen.
func TestReadmeFirstCommandShowsTheDashboard(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cmds := readmeCommands(t, root)
	if len(cmds) != 2 || cmds[1] != "scripts/test" {
		t.Fatalf("README's first commands = %q, want a dashboard command and scripts/test", cmds)
	}
	if b, err := os.ReadFile(filepath.Join(root, cmds[1])); err != nil || !strings.Contains(string(b), "go test -count=1") {
		t.Errorf("%s must install what the tests need and run go test (%v)", cmds[1], err)
	}
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil || !strings.Contains(string(ci), "\n"+cmds[1]+"\n") {
		t.Errorf(".ci/run must run the README's test command %q exactly", cmds[1])
	}
	s := tmuxtest.Start(t, 160, 48, []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")},
		"sh", "-c", "cd "+root+" && "+cmds[0])
	s.WaitFor(3*time.Minute, "REPLAY", "MariaDB 10.11", "Findings", "Processlist")
	// The recorded incident: the full-scan UPDATEs appear once playback reaches them.
	s.Keys("n")
	s.WaitFor(30*time.Second, "full_scan_update")
	s.Keys("q")
	if status := s.WaitExit(10 * time.Second); status != "0" {
		t.Errorf("exit status %s:\n%s", status, s.Screen())
	}
}
