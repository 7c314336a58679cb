package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/mytop-go/mytop-go/internal/cli"
)

// cliCommands are the commands with their flag sets, taken from each command
// itself (asked for --help), so usage, completion and the man page list the
// flags the commands really parse.
func cliCommands() []cli.Command {
	var out []cli.Command
	for _, c := range commands() {
		var help helpRequest
		if err := c.run([]string{"--help"}, io.Discard, io.Discard); !errors.As(err, &help) {
			panic(fmt.Sprintf("command %q does not answer --help: %v", c.name, err))
		}
		out = append(out, cli.Command{Name: c.name, Usage: c.usage, Summary: c.summary, Flags: help.fs})
	}
	return out
}

func runCompletion(args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("completion", flag.ContinueOnError)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError("completion needs a shell: mytop-go completion bash|zsh")
	}
	switch fs.Arg(0) {
	case "bash":
		cli.Bash(stdout, "mytop-go", cliCommands())
	case "zsh":
		cli.Zsh(stdout, "mytop-go", cliCommands())
	default:
		return usageError(fmt.Sprintf("completion: unknown shell %q (bash or zsh)", fs.Arg(0)))
	}
	return nil
}

func runMan(args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("man", flag.ContinueOnError)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usageError("man takes no arguments: mytop-go man > mytop-go.1")
	}
	cli.Man(stdout, manPage(), cliCommands())
	return nil
}

// manPage is the man page's text around the generated command reference.
func manPage() cli.ManPage {
	return cli.ManPage{
		Prog: "mytop-go", Version: version, Date: time.Now().UTC().Format("2006-01-02"),
		Title: "live diagnostics monitor for MySQL and MariaDB",
		Description: "A terminal dashboard that names what is wrong with a MySQL or MariaDB server (findings with evidence " +
			"and advice), records it, and replays recordings and captures made by other tools. It fits 80x24 over SSH; " +
			"press ? in the dashboard for the keys (y copies over OSC 52, X kills every thread a / filter shows).",
		Sections: []cli.ManSection{
			{Name: "FILES", Items: [][2]string{
				{"/etc/my.cnf, /etc/mysql/my.cnf, ~/.my.cnf", "option files: the [client] and [mytop] groups, as the mysql client reads them"},
				{"~/.mylogin.cnf", "login path file written by mysql_config_editor; --login-path NAME reads its [NAME] group"},
			}},
			{Name: "ENVIRONMENT", Items: [][2]string{
				{"MYSQL_HOST, MYSQL_TCP_PORT, MYSQL_UNIX_PORT, MYSQL_PWD", "as for the mysql client; flags win over them, they win over option files"},
				{"MYSQL_TEST_LOGIN_FILE", "another login path file instead of ~/.mylogin.cnf"},
				{"NO_COLOR", "draw without colour"},
			}},
			{Name: "EXIT STATUS", Items: [][2]string{
				{"0", "success, or --help"}, {"1", "an error (connection, file)"}, {"2", "a bad command line"},
			}},
			{Name: "SEE ALSO", Items: [][2]string{{"", "mysql(1), mysql_config_editor(1)"}}},
		},
	}
}
