//go:build linux

package testdb

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSlowFlushDisk: a write and fsync on the disk's filesystem waits at
// least the delay, the flush reaches the FUSE file, and the kernel counts
// it on the loop device.
func TestSlowFlushDisk(t *testing.T) {
	SkipShort(t)
	d := NewSlowFlushDisk(t, 64<<20, 5*time.Millisecond)
	f, err := os.Create(filepath.Join(d.Dir, "x"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	before := d.Flushes.Load()
	const n = 20
	began := time.Now()
	for range n {
		if _, err := f.WriteAt(make([]byte, 4096), 0); err != nil {
			t.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			t.Fatal(err)
		}
	}
	each := time.Since(began) / n
	flushed := d.Flushes.Load() - before
	t.Logf("%s: %d write+fsync at %v each, %d flushes reached the FUSE file", d.Device, n, each, flushed)
	if each < d.Delay || flushed < n {
		t.Errorf("want each fsync to wait %v and %d flushes, got %v and %d", d.Delay, n, each, flushed)
	}
}
