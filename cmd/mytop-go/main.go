// Command mytop-go is a live diagnostics monitor for MySQL and MariaDB: a
// dashboard that names what is wrong, records it, and replays recordings and
// captures made by other tools. This package only parses flags and wires the
// pieces together.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/mytop-go/mytop-go/internal/cli"
	"github.com/mytop-go/mytop-go/internal/connopt"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// errUsage marks errors whose message is already a complete one-line usage hint.
var errUsage = errors.New("usage")

type command struct {
	name    string
	usage   string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"", "[conn] [--interval 1s] [--record FILE] [--read-only]", "the live dashboard of one server (or a fleet with -h db1,db2 or --hosts FILE)", runLive},
		{"record", "record [conn] -o FILE [--interval 1s] [--duration D] [--redact] [--keep-around 10m]", "record a live server to a file, without a screen", runRecord},
		{"replay", "replay SOURCE [--at TIME] [--speed N] [--follow]", "the dashboard over a recording or a capture made by other tools", runReplay},
		{"report", "report SOURCE [--format text|json|markdown] [--from T] [--to T]", "what was wrong in a recording or capture, as text, JSON or Markdown", runReport},
		{"import", "import SOURCE -o FILE", "turn a capture made by other tools into a recording", runImport},
		{"snapshot", "snapshot SOURCE --at TIME -o OUT.(svg|png|txt)", "the dashboard at one moment, as a picture", runSnapshot},
		{"serve", "serve --listen 127.0.0.1:9104 [conn | -h db1,db2 | --hosts FILE] [--record DIR [--keep-around 10m]]", "headless: findings as Prometheus metrics on /metrics", runServe},
		{"completion", "completion bash|zsh", "print a shell completion script", runCompletion},
		{"man", "man", "print the man page (roff): mytop-go man > mytop-go.1", runMan},
	}
}

func main() {
	args := connopt.ScrubPasswordArgs()
	os.Exit(realMain(args[1:], os.Stdout, os.Stderr))
}

func realMain(args []string, stdout, stderr io.Writer) int {
	cmd := commands()[0]
	run := cmd.run
	if len(args) > 0 {
		switch args[0] {
		case "--version", "-V", "version":
			fmt.Fprintf(stdout, "mytop-go %s\n", version)
			return 0
		case "help", "--help", "-help", "-?":
			cli.Overview(stdout, "mytop-go", cliCommands())
			return 0
		}
		for _, c := range commands() {
			if c.name != "" && args[0] == c.name {
				cmd, run, args = c, c.run, args[1:]
				break
			}
		}
	}
	err := run(args, stdout, stderr)
	var help helpRequest
	switch {
	case err == nil:
		return 0
	case errors.As(err, &help):
		cli.Usage(stdout, "mytop-go", cli.Command{Name: cmd.name, Usage: cmd.usage, Summary: cmd.summary, Flags: help.fs})
		return 0
	}
	if !errors.Is(err, errUsage) || err.Error() != errUsage.Error() {
		fmt.Fprintf(stderr, "mytop-go: %v\n", err)
	}
	return exitCode(err)
}

func exitCode(err error) int {
	if errors.Is(err, errUsage) {
		return 2
	}
	return 1
}
