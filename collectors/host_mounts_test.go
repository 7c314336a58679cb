package collectors

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mytop-go/mytop-go/snapshot"
)

// A made-up procfs and sysfs: / on a partition of a spinning sda, /data on
// an NVMe namespace, /var/lib/mysql-tmp on tmpfs (no device).
func TestBlockMountsAndRotational(t *testing.T) {
	root := t.TempDir()
	proc, sys := filepath.Join(root, "proc"), filepath.Join(root, "sys")
	mk := func(p, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mk(filepath.Join(proc, "self", "mountinfo"),
		"22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n"+
			"30 22 259:0 / /data rw,relatime - xfs /dev/nvme0n1 rw\n"+
			"31 22 0:40 / /var/lib/mysql-tmp rw - tmpfs tmpfs rw\n"+
			"32 22 0:21 / /proc rw - proc proc rw\n")
	devs := filepath.Join(sys, "devices")
	mk(filepath.Join(devs, "sda", "sda1", "partition"), "1\n")
	mk(filepath.Join(devs, "nvme0n1", "size"), "1\n")
	mk(filepath.Join(sys, "block", "sda", "queue", "rotational"), "1\n")
	mk(filepath.Join(sys, "block", "nvme0n1", "queue", "rotational"), "0\n")
	if err := os.MkdirAll(filepath.Join(sys, "dev", "block"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"8:1": filepath.Join(devs, "sda", "sda1"),
		"259:0": filepath.Join(devs, "nvme0n1")} {
		if err := os.Symlink(target, filepath.Join(sys, "dev", "block", link)); err != nil {
			t.Fatal(err)
		}
	}
	want := []snapshot.Mount{{Point: "/", Device: "sda"}, {Point: "/data", Device: "nvme0n1"}}
	if got := blockMounts(proc, sys); !reflect.DeepEqual(got, want) {
		t.Errorf("mounts %v, want %v", got, want)
	}
	if r := rotational(sys, "sda"); r != "1" {
		t.Errorf("sda rotational %q", r)
	}
	if r := rotational(sys, "nvme0n1"); r != "0" {
		t.Errorf("nvme0n1 rotational %q", r)
	}
	if r := rotational(sys, "vdz"); r != "" {
		t.Errorf("unknown device rotational %q", r)
	}
}
