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

	"github.com/mytop-go/mytop-go/internal/connopt"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// errUsage marks errors whose message is already a complete one-line usage hint.
var errUsage = errors.New("usage")

type command struct {
	name  string
	usage string
	run   func(args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"record", "record [conn] -o FILE [--interval 1s] [--duration D] [--redact] [--keep-around 10m]", runRecord},
		{"replay", "replay SOURCE [--at TIME] [--speed N] [--follow]", runReplay},
		{"report", "report SOURCE [--format text|json|markdown] [--from T] [--to T]", runReport},
		{"import", "import SOURCE -o FILE", runImport},
		{"snapshot", "snapshot SOURCE --at TIME -o OUT.(svg|png|txt)", runSnapshot},
		{"serve", "serve --listen 127.0.0.1:9104 [conn | -h db1,db2 | --hosts FILE] [--record DIR [--keep-around 10m]]", runServe},
	}
}

func main() {
	args := connopt.ScrubPasswordArgs()
	os.Exit(realMain(args[1:], os.Stdout, os.Stderr))
}

func realMain(args []string, stdout, stderr io.Writer) int {
	run := runLive
	if len(args) > 0 {
		switch args[0] {
		case "--version", "-V", "version":
			fmt.Fprintf(stdout, "mytop-go %s\n", version)
			return 0
		case "help", "--help":
			printUsage(stdout)
			return 0
		}
		for _, c := range commands() {
			if args[0] == c.name {
				run, args = c.run, args[1:]
				break
			}
		}
	}
	if err := run(args, stdout, stderr); err != nil {
		if !errors.Is(err, errUsage) || err.Error() != errUsage.Error() {
			fmt.Fprintf(stderr, "mytop-go: %v\n", err)
		}
		return exitCode(err)
	}
	return 0
}

func exitCode(err error) int {
	if errors.Is(err, errUsage) {
		return 2
	}
	return 1
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage:")
	fmt.Fprintln(w, "  mytop-go [conn] [--interval 1s] [--record FILE]   live dashboard")
	for _, c := range commands() {
		fmt.Fprintf(w, "  mytop-go %s\n", c.usage)
	}
	fmt.Fprintln(w, "conn: -h HOST -P PORT -u USER -p[PASSWORD] -S SOCKET --defaults-file F --ssl-mode M --dsn DSN")
	fmt.Fprintln(w, "run 'mytop-go COMMAND --help' for a command's flags")
}
