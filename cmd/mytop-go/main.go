// Command mytop-go is a live diagnostics monitor for MySQL and MariaDB: a
// dashboard that names what is wrong, records it, and replays recordings and
// captures made by other tools. This package only parses flags and wires the
// pieces together.
package main

import (
	"io"
	"os"

	"github.com/mytop-go/mytop-go/internal/cli"
	"github.com/mytop-go/mytop-go/internal/connopt"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

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
		{"report", "report SOURCE [--format text|json|markdown] [--from T] [--to T] [--baseline FROM..TO]", "what was wrong in a recording or capture, as text, JSON or Markdown", runReport},
		{"diff", "diff HEALTHY INCIDENT [--format text|json]", "what changed between two sources: variables, rates, statements, the user/host/db mix", runDiff},
		{"import", "import SOURCE -o FILE", "turn a capture made by other tools into a recording", runImport},
		{"snapshot", "snapshot SOURCE --at TIME -o OUT.(svg|png|txt)", "the dashboard at one moment, as a picture", runSnapshot},
		{"check", "check [conn] [--format text|json]", "what the monitor can and cannot see on a server, and the GRANT or setting for each blind spot (exit 3 when a rule is blind)", runCheck},
		{"serve", "serve --listen 127.0.0.1:9104 [conn | -h db1,db2 | --hosts FILE] [--record DIR [--keep-around 10m]]", "headless: findings as Prometheus metrics on /metrics", runServe},
		{"completion", "completion bash|zsh", "print a shell completion script", func(args []string, stdout, stderr io.Writer) error {
			return app().RunCompletion(args, stdout, stderr)
		}},
		{"man", "man", "print the man page (roff): mytop-go man > mytop-go.1", func(args []string, stdout, stderr io.Writer) error {
			return app().RunMan(args, stdout, stderr)
		}},
	}
}

// app is the program as internal/cli runs it: usage, exit codes, completion
// and the man page all come from the commands above and their flag sets.
func app() *cli.App {
	a := &cli.App{Prog: "mytop-go", Version: version, Man: manPage, Rewrite: connopt.NormalizeArgs}
	for _, c := range commands() {
		a.Commands = append(a.Commands, cli.Command{Name: c.name, Usage: c.usage, Summary: c.summary, Run: c.run})
	}
	return a
}

func main() {
	args := connopt.ScrubPasswordArgs()
	stop := startDevProfile(os.Stderr)
	code := realMain(args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func realMain(args []string, stdout, stderr io.Writer) int {
	return app().Main(args, stdout, stderr)
}
