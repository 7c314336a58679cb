package exporter

import (
	"os/exec"
	"testing"
)

// TestShippedAlertRules checks examples/prometheus with Prometheus' own tool:
// the rules parse, and their unit tests (alerts_test.yml) pass.
func TestShippedAlertRules(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Fatal("promtool not found: install Debian's prometheus package (.ci/run does)")
	}
	for _, args := range [][]string{
		{"check", "rules", "alerts.yml"},
		{"test", "rules", "alerts_test.yml"},
	} {
		cmd := exec.Command(promtool, args...)
		cmd.Dir = "../examples/prometheus"
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("promtool %v: %v\n%s", args, err, out)
		}
	}
}
