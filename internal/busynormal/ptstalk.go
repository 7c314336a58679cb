package busynormal

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// PtStalk collects what pt-stalk collects (the real tool, with no trigger:
// it collects at once) for runFor into dir, one file per part named
// <prefix>-<part>. It returns when the collection ends or ctx does.
func PtStalk(ctx context.Context, b *Bed, dir string, runFor time.Duration) error {
	bin, err := exec.LookPath("pt-stalk")
	if err != nil {
		return fmt.Errorf("pt-stalk is not installed (percona-toolkit)")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	secs := strconv.Itoa(int(runFor.Seconds()))
	cmd := command(ctx, bin, "--no-stalk", "--iterations=1", "--run-time="+secs, "--sleep=0",
		"--dest="+dir, "--pid="+filepath.Join(b.Dir, "pt-stalk.pid"), "--log="+filepath.Join(b.Dir, "pt-stalk.log"),
		"--disk-pct-free=1", "--", "--no-defaults", "--socket="+b.Srv.Socket, "--user=root")
	out, err := cmd.CombinedOutput()
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("pt-stalk: %v: %s", err, out)
	}
	return nil
}
