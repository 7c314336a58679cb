//go:build !linux

package testdb

import (
	"sync/atomic"
	"testing"
	"time"
)

// SlowFlushDisk is slowdisk_linux.go's loop device on FUSE; elsewhere there
// is none.
type SlowFlushDisk struct {
	Dir, Device string
	Delay       time.Duration
	Flushes     atomic.Int64
}

// NewSlowFlushDisk skips the test outside Linux.
func NewSlowFlushDisk(t testing.TB, size int64, delay time.Duration) *SlowFlushDisk {
	t.Skip("no slow-flush disk here: it needs Linux loop devices and FUSE")
	return nil
}
