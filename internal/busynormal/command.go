package busynormal

import (
	"context"
	"os/exec"
)

// command is exec.CommandContext for the bed's children: killed when ctx
// ends, and when this process dies.
func command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.SysProcAttr = orphanKill()
	return cmd
}
