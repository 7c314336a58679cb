package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mytop-go/mytop-go/internal/testdb"
	"github.com/mytop-go/mytop-go/internal/testwait"
)

// lockedBuffer is a bytes.Buffer the child's stderr copier and the test can
// share.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// stderrMatch polls stderr for re until within passes and returns its submatches.
func stderrMatch(t *testing.T, stderr *lockedBuffer, re *regexp.Regexp, within time.Duration) []string {
	t.Helper()
	var m []string
	testwait.Until(t, within, 100*time.Millisecond, func() bool { m = re.FindStringSubmatch(stderr.String()); return m != nil },
		func() string { return fmt.Sprintf("%q on stderr (%q)", re, stderr.String()) })
	return m
}

func TestRecorderTellsItsOwnHealthOnSIGUSR1(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	srv := testdb.Start(t)
	out := filepath.Join(t.TempDir(), "r.mytop")
	cmd := exec.Command(bin, "record", "--no-defaults", "-S", srv.Socket, "-uroot", "-o", out, "--duration", "30s")
	cmd.Env = []string{"HOME=" + t.TempDir()}
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	stderrMatch(t, stderr, regexp.MustCompile(`[2-9] frames`), 20*time.Second)
	if err := cmd.Process.Signal(syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	m := stderrMatch(t, stderr, regexp.MustCompile(`status \S+: (\d+) frames, [^,]+, goroutines (\d+), heap ([\d.]+) MB`), 5*time.Second)
	frames, _ := strconv.Atoi(m[1])
	goroutines, _ := strconv.Atoi(m[2])
	if frames < 2 || goroutines < 2 || m[3] == "0.0" {
		t.Errorf("status line %q: want the frames so far, the goroutines and the heap", m[0])
	}
	_ = cmd.Process.Signal(os.Interrupt)
	if err := cmd.Wait(); err != nil {
		t.Errorf("recorder after SIGUSR1 and SIGINT: %v\n%s", err, stderr.String())
	}
}
