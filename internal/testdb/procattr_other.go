//go:build !linux

package testdb

import "syscall"

func procAttr() *syscall.SysProcAttr { return nil }
