//go:build linux

package testdb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// SlowFlushDisk is a real block device whose cache flushes each take at
// least Delay: an ext4 filesystem on a loop device whose backing file lives
// on a FUSE filesystem served by this process, where every fsync sleeps.
// It is the disk without a write cache that commit_fsync_bound is about
// (a flush of 2-10 ms), which this machine's virtual disk (0.1 ms a flush)
// and kernel (no dm-delay) cannot give otherwise. The kernel sees an
// ordinary device: /proc/diskstats counts its flushes and their time, and
// a server whose redo log is on Dir pays for each fsync.
type SlowFlushDisk struct {
	// Dir is the mounted filesystem, for a server's files.
	Dir string
	// Device is the loop device, e.g. /dev/loop3.
	Device string
	// Delay is what each flush waits before it completes.
	Delay time.Duration
	// Flushes counts the flushes that reached the backing file.
	Flushes atomic.Int64
}

// NewSlowFlushDisk makes a SlowFlushDisk of size bytes for the test and
// removes it at cleanup (register it before the server that uses it, so
// the server stops first). It skips the test, saying why, where this
// machine cannot: not root, no /dev/fuse, no loop devices or mkfs.ext4.
func NewSlowFlushDisk(t testing.TB, size int64, delay time.Duration) *SlowFlushDisk {
	t.Helper()
	if why := slowDiskUnsupported(); why != "" {
		t.Skipf("no slow-flush disk here: %s", why)
	}
	root, err := os.MkdirTemp(shortTempRoot(), "mytop-slowdisk-")
	if err != nil {
		t.Fatal(err)
	}
	d := &SlowFlushDisk{Dir: filepath.Join(root, "mnt"), Delay: delay}
	backing, fuseDir := filepath.Join(root, "backing"), filepath.Join(root, "fuse")
	for _, dir := range []string{backing, fuseDir, d.Dir} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var undo []func() error
	t.Cleanup(func() {
		for i := len(undo) - 1; i >= 0; i-- {
			if err := undo[i](); err != nil {
				t.Errorf("testdb: slow disk cleanup: %v", err)
			}
		}
		os.RemoveAll(root)
	})
	server, err := d.serveFUSE(backing, fuseDir)
	if err != nil {
		t.Skipf("no slow-flush disk here: FUSE mount: %v", err)
	}
	undo = append(undo, func() error { return unmountFUSE(server, fuseDir) })
	image := filepath.Join(fuseDir, "disk.img")
	if err := makeSparse(image, size); err != nil {
		t.Fatalf("testdb: slow disk image: %v", err)
	}
	out, err := run("losetup", "--find", "--show", image)
	if err != nil {
		t.Skipf("no slow-flush disk here: losetup: %v", err)
	}
	d.Device = strings.TrimSpace(out)
	undo = append(undo, func() error { _, err := run("losetup", "-d", d.Device); return err })
	if _, err := run("mkfs.ext4", "-q", "-F", "-E", "nodiscard", d.Device); err != nil {
		t.Fatalf("testdb: mkfs.ext4 on %s: %v", d.Device, err)
	}
	if _, err := run("mount", d.Device, d.Dir); err != nil {
		t.Fatalf("testdb: mount %s: %v", d.Device, err)
	}
	undo = append(undo, func() error { return unmount(d.Dir) })
	return d
}

// slowDiskUnsupported says why this machine cannot make a SlowFlushDisk.
func slowDiskUnsupported() string {
	if os.Geteuid() != 0 {
		return "loop devices and mounts need root"
	}
	if _, err := os.Stat("/dev/fuse"); err != nil {
		return "no /dev/fuse"
	}
	for _, tool := range []string{"losetup", "mkfs.ext4", "mount", "umount"} {
		if _, err := exec.LookPath(tool); err != nil {
			return tool + " is not installed"
		}
	}
	return ""
}

// serveFUSE mirrors backing at dir, every fsync delayed by d.Delay.
func (d *SlowFlushDisk) serveFUSE(backing, dir string) (*fuse.Server, error) {
	root, err := fs.NewLoopbackRoot(backing)
	if err != nil {
		return nil, err
	}
	node := &slowFlushNode{LoopbackNode: root.(*fs.LoopbackNode), disk: d}
	return fs.Mount(dir, node, &fs.Options{MountOptions: fuse.MountOptions{
		FsName: "mytop-slowdisk", Name: "slowflush", DirectMount: true,
	}})
}

// slowFlushNode is a loopback node whose fsync waits the disk's delay: the
// loop device turns each cache flush of the ext4 above into one.
type slowFlushNode struct {
	*fs.LoopbackNode
	disk *SlowFlushDisk
}

func (n *slowFlushNode) WrapChild(_ context.Context, ops fs.InodeEmbedder) fs.InodeEmbedder {
	return &slowFlushNode{LoopbackNode: ops.(*fs.LoopbackNode), disk: n.disk}
}

func (n *slowFlushNode) Fsync(ctx context.Context, f fs.FileHandle, flags uint32) syscall.Errno {
	time.Sleep(n.disk.Delay)
	n.disk.Flushes.Add(1)
	if s, ok := f.(fs.FileFsyncer); ok {
		return s.Fsync(ctx, flags)
	}
	return 0
}

func makeSparse(path string, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return errors.Join(f.Truncate(size), f.Close())
}

// unmount detaches dir, lazily if something still holds it, so a failed
// test never leaves a mount behind.
func unmount(dir string) error {
	if _, err := run("umount", dir); err != nil {
		run("umount", "-l", dir)
		return err
	}
	return nil
}

func unmountFUSE(server *fuse.Server, dir string) error {
	if err := server.Unmount(); err != nil {
		run("umount", "-l", dir)
		return fmt.Errorf("unmount %s: %v", dir, err)
	}
	server.Wait()
	return nil
}

func run(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}
