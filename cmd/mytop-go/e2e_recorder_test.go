package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/internal/testfiles"
	"github.com/mytop-go/mytop-go/internal/tmuxtest"
	"github.com/mytop-go/mytop-go/recording"
)

// TestLiveRecordKeyInTmux presses R in a live session: a timestamped file in
// the current directory, REC with its name and size in the header while on,
// and a complete recording once R stops it.
func TestLiveRecordKeyInTmux(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	srv := testdb.Start(t)
	dir := t.TempDir()
	live := shellJoinForTest(bin, "--no-defaults", "-S", srv.Socket, "-uroot", "--interval", "300ms")
	s := tmuxtest.Start(t, 160, 45, []string{"HOME=" + t.TempDir()}, "sh", "-c", "cd "+shellQuote(dir)+" && exec "+live)
	s.WaitFor(20*time.Second, "MariaDB", "R record")
	if strings.Contains(firstScreenLine(s.Screen()), "REC") {
		t.Fatal("REC shown before R")
	}
	s.Keys("R")
	header := firstScreenLine(s.WaitFor(5*time.Second, "REC mytop-go-"))
	if !regexp.MustCompile(`REC mytop-go-\d{8}-\d{6}\.mytop \d+(\.\d)?[BKM]`).MatchString(header) {
		t.Errorf("header = %q, want REC, the file and its size", header)
	}
	time.Sleep(2 * time.Second)
	s.Keys("R")
	s.WaitFor(5*time.Second, "recording stopped: mytop-go-")
	if strings.Contains(firstScreenLine(s.Screen()), "REC") {
		t.Error("REC still shown after R stopped recording")
	}
	s.Keys("q")
	if status := s.WaitExit(10 * time.Second); status != "0" {
		t.Errorf("exit status %s, want 0:\n%s", status, s.Screen())
	}
	files, _ := filepath.Glob(filepath.Join(dir, "mytop-go-*.mytop"))
	if len(files) != 1 {
		t.Fatalf("recordings in the current directory: %v, want one", files)
	}
	if n := testfiles.Len(t, recording.Open, files[0]); n < 3 {
		t.Errorf("%d frames in 2 s at 300ms, want several", n)
	}
}

func firstScreenLine(screen string) string {
	line, _, _ := strings.Cut(screen, "\n")
	return line
}

func shellJoinForTest(argv ...string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
