package testdb

import (
	"os/exec"
	"testing"
)

// StartNamespaced starts a server as a container runs one on this machine:
// in its own UTS namespace, named hostname, and its own network namespace,
// so no TCP port of it is reachable here and its socket is not listed in
// this machine's /proc/net/unix; the socket file, on the shared filesystem,
// still answers. It needs root (or user namespaces) and unshare(1), and
// skips the test, saying why, without them.
func StartNamespaced(t testing.TB, hostname string, extraArgs ...string) *Server {
	t.Helper()
	SkipShort(t)
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("unshare(1) is not installed (util-linux)")
	}
	if out, err := exec.Command(unshare, "--uts", "--net", "true").CombinedOutput(); err != nil {
		t.Skipf("cannot make namespaces here: %v %s", err, out)
	}
	args := append([]string{"--skip-networking"}, extraArgs...)
	server := ""
	return startWith(t, func(s *Server) error {
		if server == "" {
			server = s.binary // prepare runs again on a retried start
		}
		// unshare and sh exec in turn: mariadbd keeps the pid started.
		inner := append([]string{"--uts", "--net", "--", "/bin/sh", "-c", `hostname "$0" && exec "$@"`, hostname, server}, s.Args...)
		s.binary, s.Args = unshare, inner
		return nil
	}, args)
}
