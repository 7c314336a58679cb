package testdb

import (
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"time"
)

// lockRun takes the heavy-test lock shared by the test processes of one
// `go test` run (their parent is the go command): a listening socket in the
// abstract namespace, which the kernel frees when its process dies, so a
// killed test never leaves a stale lock. It returns the release.
// lockPoll is how often a waiting process tries the run-wide lock: a
// failed bind is cheap, and every poll's wait is idle time between two heavy
// tests of different packages.
const lockPoll = 50 * time.Millisecond

func lockRun() func() {
	name := fmt.Sprintf("@mytop-go-heavy-%d-%d", os.Getuid(), os.Getppid())
	for {
		l, err := net.Listen("unix", name)
		if err == nil {
			return func() { l.Close() }
		}
		if !errors.Is(err, syscall.EADDRINUSE) {
			// No lock to share (a sandbox without unix sockets): this
			// process's own slot still holds.
			return func() {}
		}
		time.Sleep(lockPoll)
	}
}
