package busynormal

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"
)

// cpuHog is a process outside mysqld burning every CPU: one busy loop per
// CPU, each a shell of its own, as a runaway script would be.
var cpuHog = Fault{
	Name:  "cpu-hog",
	Cause: "cpu outside mysqld",
	Inject: func(ctx context.Context, b *Bed) error {
		var cmds []*exec.Cmd
		for range runtime.NumCPU() {
			cmd := command(ctx, "sh", "-c", "while :; do :; done")
			if err := cmd.Start(); err != nil {
				return err
			}
			cmds = append(cmds, cmd)
		}
		began := time.Now()
		var used time.Duration
		for _, cmd := range cmds {
			cmd.Wait()
			used += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
		b.hogShare = 100 * used.Seconds() / time.Since(began).Seconds() / float64(runtime.NumCPU())
		b.logf("cpu-hog: the busy loops used %.0f %% of the CPUs", b.hogShare)
		return nil
	},
	// The loops' own share of the CPUs is the fault; on a host whose CPUs
	// other work already keeps busy it comes from mysqld rather than from
	// idle, and the server may feel it as statements waiting for a CPU.
	// (Timelines older than Hog have only the latter.)
	Felt: func(normal, during Effect) string {
		if during.Hog >= 20 {
			return ""
		}
		return rose("threads running", normal.ThreadsRunning, during.ThreadsRunning, 1.5, 0)
	},
}

// diskHog writes to the datadir's device past its cache (O_DIRECT), 1 MB
// at a time, over and over, as a copy or a backup to the same disk does.
var diskHog = Fault{
	Name:  "disk-hog",
	Cause: "disk",
	Inject: func(ctx context.Context, b *Bed) error {
		path := filepath.Join(b.Dir, "diskhog")
		defer os.Remove(path)
		for ctx.Err() == nil {
			out, err := command(ctx, "dd", "if=/dev/zero", "of="+path, "bs=1M", "count=256",
				"oflag=direct", "conv=notrunc").CombinedOutput()
			if err != nil && ctx.Err() == nil {
				return fmt.Errorf("dd: %v: %s", err, out)
			}
		}
		return nil
	},
	// The hog's writes add to the device's; they do not multiply them.
	Felt: func(normal, during Effect) string {
		return rose("MB written per second on the datadir's device", normal.DiskWriteMB, during.DiskWriteMB, 1, 100)
	},
}
