package busynormal

import "syscall"

// orphanKill has the kernel kill a child of the bed (sysbench, a hog,
// pt-stalk) when the test process dies without running its cleanups (a
// timeout, a kill), as testdb does for the server.
func orphanKill() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
