package collectors

import (
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// A kept descriptor read again gives the thread's current figures, and is
// closed once the thread is not read for keepRounds rounds.
func TestProcReaderKeptDescriptorIsFresh(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pid, tid := syscall.Getpid(), int64(syscall.Gettid())
	var r procReader
	cpu := func() uint64 {
		b, err := r.readTask("/proc", pid, tid, "stat")
		if err != nil {
			t.Fatal(err)
		}
		st, err := parseTaskStat(b)
		if err != nil {
			t.Fatal(err)
		}
		return st.cpuTicks()
	}
	before := cpu()
	if len(r.fds) != 1 {
		t.Fatalf("%d descriptors kept, want 1", len(r.fds))
	}
	// Spin until this thread has had 30 ms of CPU by its own count (two
	// clock ticks and more), however loaded the machine: a wall-clock spin
	// on a busy machine got less than a tick.
	spent := threadCPU(t)
	for end := time.Now().Add(10 * time.Second); threadCPU(t)-spent < 30*time.Millisecond; {
		if time.Now().After(end) {
			t.Skip("the thread got under 30 ms of CPU in 10 s")
		}
	}
	if after := cpu(); after <= before {
		t.Errorf("CPU ticks %d then %d: the kept descriptor read stale figures", before, after)
	}
	for range keepRounds + 1 {
		r.endRound()
	}
	if len(r.fds) != 0 {
		t.Errorf("%d descriptors still open after %d idle rounds", len(r.fds), keepRounds+1)
	}
}

// A process (or thread) that ended is not read through its kept
// descriptor: the read fails as it did before descriptors were kept, and a
// reused id would be opened afresh.
func TestProcReaderEndedTask(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep to start:", err)
	}
	pid := cmd.Process.Pid
	var r procReader
	if _, err := r.readTask("/proc", pid, 0, "stat"); err != nil {
		t.Fatal(err)
	}
	if len(r.fds) != 1 {
		t.Fatalf("%d descriptors kept, want 1", len(r.fds))
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait() // reaped: the pid no longer names it
	if _, err := r.readTask("/proc", pid, 0, "stat"); err == nil {
		t.Error("an ended process was read through its kept descriptor")
	}
	if len(r.fds) != 0 {
		t.Errorf("%d descriptors kept for an ended process", len(r.fds))
	}
	r.closeAll()
}

// threadCPU is the calling thread's CPU time (user and system).
func threadCPU(t *testing.T) time.Duration {
	t.Helper()
	const rusageThread = 1 // RUSAGE_THREAD
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
