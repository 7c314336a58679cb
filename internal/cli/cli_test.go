package cli

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func testCommands() []Command {
	live := flag.NewFlagSet("mytop-go", flag.ContinueOnError)
	live.String("host", "", "server host (-h)")
	live.Duration("interval", 0, "sampling interval")
	live.Bool("read-only", false, "disable KILL entirely")
	live.String("defaults-file", "", "read only this option file")
	rec := flag.NewFlagSet("record", flag.ContinueOnError)
	rec.String("o", "", "recording file to create")
	rec.Bool("redact", false, "replace literals with ?")
	return []Command{
		{Name: "", Usage: "[conn]", Summary: "the live dashboard", Flags: live},
		{Name: "record", Usage: "record [conn] -o FILE", Summary: "record a live server", Flags: rec},
	}
}

func TestUsageLayout(t *testing.T) {
	var b bytes.Buffer
	Usage(&b, "mytop-go", testCommands()[1])
	want := "Usage: mytop-go record [conn] -o FILE\n\nrecord a live server\n\nOptions:\n" +
		"  --o FILE  recording file to create\n  --redact  replace literals with ?\n  --help    show this help and exit\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	overview(&b, "mytop-go", testCommands())
	for _, w := range []string{"Usage: mytop-go [OPTIONS]", "  record       record a live server", "-h, --host STRING", "--defaults-file FILE"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("overview lacks %q:\n%s", w, b.String())
		}
	}
}

// The bash script completes commands and each command's own options when
// bash runs it for real.
func TestBashCompletionRuns(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	var b bytes.Buffer
	Bash(&b, "mytop-go", testCommands())
	script := filepath.Join(t.TempDir(), "c.bash")
	if err := os.WriteFile(script, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ line, want string }{
		{"mytop-go rec", "record"},
		{"mytop-go record --re", "--redact"},
		{"mytop-go --re", "--read-only"},
		{"mytop-go --inter", "--interval"},
	}
	for _, tt := range tests {
		words := strings.Fields(tt.line)
		prog := `source "$1"; COMP_WORDS=(` + strings.Join(words, " ") + `); COMP_CWORD=` +
			string(rune('0'+len(words)-1)) + `; _mytop_go; printf '%s\n' "${COMPREPLY[@]}"`
		out, err := exec.Command(bash, "-c", prog, "bash", script).CombinedOutput()
		if err != nil || !strings.Contains(string(out), tt.want) {
			t.Errorf("%q: got %q (%v), want %q", tt.line, out, err, tt.want)
		}
		if tt.line == "mytop-go record --re" && strings.Contains(string(out), "--read-only") {
			t.Errorf("record completes the dashboard's --read-only: %q", out)
		}
	}
}

func TestZshCompletionParses(t *testing.T) {
	var b bytes.Buffer
	zsh(&b, "mytop-go", testCommands())
	s := b.String()
	for _, w := range []string{"#compdef mytop-go", "'--redact[replace literals with ?]'", "'--defaults-file=[read only this option file]:file:_files'", "record)"} {
		if !strings.Contains(s, w) {
			t.Errorf("zsh script lacks %q:\n%s", w, s)
		}
	}
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		t.Log("zsh not installed: script checked as text only")
		return
	}
	if out, err := exec.Command(zsh, "-n", "-c", s).CombinedOutput(); err != nil {
		t.Errorf("zsh -n: %v: %s", err, out)
	}
}

func TestManPage(t *testing.T) {
	var b bytes.Buffer
	man(&b, ManPage{Prog: "mytop-go", Version: "1.0", Date: "2026-12-01", Title: "monitor", Description: ".starts with a dot -x"}, testCommands())
	s := b.String()
	for _, w := range []string{`.TH MYTOP-GO 1 "2026-12-01" "mytop-go 1.0"`, ".SH SYNOPSIS", `.B \-h, \-\-host STRING`, `\&.starts with a dot \-x`, ".SS record"} {
		if !strings.Contains(s, w) {
			t.Errorf("man page lacks %q:\n%s", w, s)
		}
	}
	man, err := exec.LookPath("man")
	if err != nil {
		t.Log("man not installed: page checked as text only")
		return
	}
	p := filepath.Join(t.TempDir(), "mytop-go.1")
	os.WriteFile(p, b.Bytes(), 0o600)
	out, err := exec.Command(man, "-l", p).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--redact") {
		t.Errorf("man -l: %v: %s", err, out)
	}
}
