package recording

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// childEnv makes the test binary act as a recorder that never stops.
const childEnv = "MYTOP_RECORDING_SIGKILL_CHILD"

// TestSIGKILLLosesAtMostFrameInFlight runs a recorder in a child process,
// kills it with SIGKILL while it writes, and reads back every frame it had
// reported committed.
func TestSIGKILLLosesAtMostFrameInFlight(t *testing.T) {
	if path := os.Getenv(childEnv); path != "" {
		recordForever(t, path)
		return
	}
	path := filepath.Join(t.TempDir(), "killed.mytop")
	cmd := exec.Command(os.Args[0], "-test.run=^TestSIGKILLLosesAtMostFrameInFlight$")
	cmd.Env = append(os.Environ(), childEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	committed := waitCommitted(t, cmd, out, 25)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Fatalf("a killed recorder leaves its log behind: %v", err)
	}
	r := openT(t, path)
	if r.Len() < committed {
		t.Fatalf("read %d frames, the recorder had committed %d", r.Len(), committed)
	}
	srv := newFakeServer(t, 11, 30)
	for i := range r.Len() {
		got, err := r.Snapshot(i)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		sameSnapshot(t, i, got, srv.frame(i).Snapshot)
	}
	// A restarted recorder appends to the file the killed one left.
	w, err := Create(path, WriterOptions{Append: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(srv.frame(r.Len())); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if n, err := r.Refresh(); err != nil || n != 1 {
		t.Errorf("after restart: %d new frames, %v", n, err)
	}
}

// waitCommitted reads the child's "committed N" lines until N reaches n.
func waitCommitted(t *testing.T, cmd *exec.Cmd, out interface{ Read([]byte) (int, error) }, n int) int {
	t.Helper()
	timer := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	defer timer.Stop()
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		var got int
		if _, err := fmt.Sscanf(sc.Text(), "committed %d", &got); err == nil && got >= n {
			return got
		}
	}
	cmd.Process.Kill()
	t.Fatal("child recorder stopped before committing enough frames")
	return 0
}

func recordForever(t *testing.T, path string) {
	w, err := Create(path, WriterOptions{KeyframeEvery: 10})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	srv := newFakeServer(t, 11, 30)
	for i := 0; ; i++ {
		if err := w.Write(srv.frame(i)); err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		os.Stdout.WriteString("committed " + strconv.Itoa(i+1) + "\n")
	}
}
