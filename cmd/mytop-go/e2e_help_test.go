package main

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// run runs the binary and returns stdout, stderr and the exit status.
func runBinary(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command(binary(t), args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.String(), errb.String(), 0
	case errors.As(err, &exit):
		return out.String(), errb.String(), exit.ExitCode()
	}
	t.Fatal(err)
	return "", "", -1
}

func TestHelpExitCodesAndLayout(t *testing.T) {
	t.Parallel()
	out, errOut, code := runBinary(t, "--help")
	if code != 0 || errOut != "" || !strings.HasPrefix(out, "Usage: mytop-go [OPTIONS]") || !strings.Contains(out, "--login-path") {
		t.Errorf("--help: exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}
	for _, c := range commands() {
		if c.name == "" {
			continue
		}
		out, errOut, code := runBinary(t, c.name, "--help")
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "Usage: mytop-go "+c.name) || !strings.Contains(out, "--help") {
			t.Errorf("%s --help: exit %d, stderr %q, stdout:\n%s", c.name, code, errOut, out)
		}
	}
	for _, args := range [][]string{{"--bogus"}, {"record", "--nope"}, {"completion", "fish"}, {"report", "--format"}} {
		out, errOut, code := runBinary(t, args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line", args, code, out, errOut)
		}
	}
}

func TestCompletionAndManFromTheFlags(t *testing.T) {
	t.Parallel()
	out, _, code := runBinary(t, "completion", "bash")
	if code != 0 || !strings.Contains(out, "complete -o filenames -F _mytop_go mytop-go") || !strings.Contains(out, "--keep-around") {
		t.Errorf("completion bash: exit %d:\n%s", code, out)
	}
	if bash, err := exec.LookPath("bash"); err == nil {
		if b, err := exec.Command(bash, "-n", "-c", out).CombinedOutput(); err != nil {
			t.Errorf("bash -n: %v: %s", err, b)
		}
	}
	out, _, code = runBinary(t, "completion", "zsh")
	if code != 0 || !strings.HasPrefix(out, "#compdef mytop-go") {
		t.Errorf("completion zsh: exit %d:\n%s", code, out)
	}
	out, _, code = runBinary(t, "man")
	if code != 0 || !strings.HasPrefix(out, ".TH MYTOP-GO 1") || !strings.Contains(out, `\-\-login\-path`) || !strings.Contains(out, ".SS serve") {
		t.Errorf("man: exit %d:\n%.400s", code, out)
	}
}
