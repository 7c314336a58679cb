package cli

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
)

// testApp is a program with a default command and a record command over the
// flag sets of testCommands, plus completion and man.
func testApp(ran *[]string) *App {
	a := &App{Prog: "mytop-go", Version: "1.2", Man: ManPage{Title: "monitor"},
		Rewrite: func(args []string) []string {
			for i, s := range args {
				if s == "-R" {
					args[i] = "--redact"
				}
			}
			return args
		}}
	for _, c := range testCommands() {
		fs := c.Flags
		c.Flags = nil
		c.Run = func(args []string, stdout, stderr io.Writer) error {
			if err := Parse(fs, args); err != nil {
				return err
			}
			*ran = append(*ran, fs.Name()+" "+strings.Join(fs.Args(), " "))
			if fs.NArg() > 0 && fs.Arg(0) == "fail" {
				return errors.New("cannot connect")
			}
			return nil
		}
		a.Commands = append(a.Commands, c)
	}
	a.Commands = append(a.Commands,
		Command{Name: "completion", Usage: "completion bash|zsh", Run: a.RunCompletion},
		Command{Name: "man", Usage: "man", Run: a.RunMan})
	return a
}

func TestAppMain(t *testing.T) {
	tests := []struct {
		args           []string
		code           int
		ran, out, errs string
	}{
		{args: nil, ran: "mytop-go "},
		{args: []string{"--version"}, out: "mytop-go 1.2\n"},
		{args: []string{"record", "out.mytop", "--o", "x", "-R"}, ran: "record out.mytop"},
		{args: []string{"record", "fail"}, code: 1, ran: "record fail", errs: "mytop-go: cannot connect\n"},
		{args: []string{"--bogus"}, code: 2, errs: "mytop-go: flag provided but not defined: -bogus (see 'mytop-go --help')\n"},
		{args: []string{"record", "--nope"}, code: 2, errs: "mytop-go: flag provided but not defined: -nope (see 'mytop-go record --help')\n"},
		{args: []string{"completion", "fish"}, code: 2, errs: "mytop-go: completion: unknown shell \"fish\" (bash or zsh)\n"},
		{args: []string{"completion"}, code: 2, errs: "mytop-go: completion needs a shell: mytop-go completion bash|zsh\n"},
		{args: []string{"man", "x"}, code: 2, errs: "mytop-go: man takes no arguments: mytop-go man > mytop-go.1\n"},
		{args: []string{"record", "--help"}, out: "Usage: mytop-go record [conn] -o FILE\n"},
		{args: []string{"--help"}, out: "Usage: mytop-go [OPTIONS]\n"},
		{args: []string{"completion", "bash"}, out: "# bash completion for mytop-go"},
		{args: []string{"man"}, out: ".TH MYTOP-GO 1 "},
	}
	for _, tt := range tests {
		var ran []string
		var stdout, stderr bytes.Buffer
		code := testApp(&ran).Main(tt.args, &stdout, &stderr)
		if code != tt.code || strings.Join(ran, ";") != tt.ran || !strings.HasPrefix(stdout.String(), tt.out) || stderr.String() != tt.errs {
			t.Errorf("%q: exit %d, ran %q, stdout %.80q, stderr %q; want exit %d, ran %q, stdout %q..., stderr %q",
				tt.args, code, ran, stdout.String(), stderr.String(), tt.code, tt.ran, tt.out, tt.errs)
		}
	}
}

// The man page and completion list every command's flags, asked of the
// commands themselves, and the page carries the program's version.
func TestAppDocumentsTheCommandsFlags(t *testing.T) {
	var ran []string
	var b bytes.Buffer
	a := testApp(&ran)
	a.Man.Sections = []ManSection{{Name: "FILES", Items: [][2]string{{"~/.my.cnf", "options"}}}}
	if code := a.Main([]string{"man"}, &b, io.Discard); code != 0 {
		t.Fatalf("man: exit %d", code)
	}
	for _, w := range []string{`"mytop-go 1.2"`, ".SS record", `.B \-\-redact`, `.B \-\-read\-only`, ".SS completion", ".SH FILES"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("man page lacks %q:\n%s", w, b.String())
		}
	}
	b.Reset()
	a.Main([]string{"completion", "zsh"}, &b, io.Discard)
	if !strings.Contains(b.String(), "'--redact[replace literals with ?]'") {
		t.Errorf("zsh completion lacks record's --redact:\n%s", b.String())
	}
	if len(ran) != 0 {
		t.Errorf("asking for the flags ran %q", ran)
	}
}

func TestParseFlagsAfterArguments(t *testing.T) {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	at := fs.String("at", "", "")
	if err := Parse(fs, []string{"rec.mytop", "--at", "+5m", "more"}); err != nil {
		t.Fatal(err)
	}
	if *at != "+5m" || strings.Join(fs.Args(), " ") != "rec.mytop more" {
		t.Errorf("at %q, args %q", *at, fs.Args())
	}
}
