//go:build !linux

package busynormal

import "syscall"

func orphanKill() *syscall.SysProcAttr { return nil }
