package testdb

import "syscall"

// procAttr makes the kernel kill mariadbd if the test process dies without
// running its cleanups (e.g. a test timeout panic).
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
