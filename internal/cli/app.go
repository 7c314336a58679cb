package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
)

// App is a program of commands. Main takes it from its arguments to its exit
// status: --version, --help, the command named first (else the default
// command, Commands[0]), and the usual exit codes: 0 for success or --help,
// 1 for an error, 2 for a bad command line (said in one line on stderr).
type App struct {
	Prog, Version string
	Commands      []Command
	// Man is the man page's own text; RunMan fills in Prog, Version and Date.
	Man ManPage
	// Rewrite, if set, turns a command's arguments into what Parse reads
	// (the mysql client's -uroot into --user=root) before the command runs.
	Rewrite func([]string) []string
}

// Main runs the command args name and returns the exit status.
func (a *App) Main(args []string, stdout, stderr io.Writer) int {
	cmd := a.Commands[0]
	if len(args) > 0 {
		switch args[0] {
		case "--version", "-V", "version":
			fmt.Fprintf(stdout, "%s %s\n", a.Prog, a.Version)
			return 0
		case "help", "--help", "-help", "-?":
			overview(stdout, a.Prog, a.withFlags())
			return 0
		}
		for _, c := range a.Commands {
			if c.Name != "" && args[0] == c.Name {
				cmd, args = c, args[1:]
				break
			}
		}
	}
	if a.Rewrite != nil {
		args = a.Rewrite(args)
	}
	err := cmd.Run(args, stdout, stderr)
	var help helpRequest
	var usage *usageError
	var status ExitStatus
	switch {
	case err == nil:
		return 0
	case errors.As(err, &status):
		return int(status)
	case errors.As(err, &help):
		cmd.Flags = help.fs
		Usage(stdout, a.Prog, cmd)
		return 0
	case errors.As(err, &usage):
		if usage.badFlag {
			err = fmt.Errorf("%v (see '%s --help')", err, strings.TrimSpace(a.Prog+" "+cmd.Name))
		}
		fmt.Fprintf(stderr, "%s: %v\n", a.Prog, err)
		return 2
	}
	fmt.Fprintf(stderr, "%s: %v\n", a.Prog, err)
	return 1
}

// Parse parses a command's arguments. Flags may follow the positional
// arguments, as users type them (replay SOURCE --at +5m). --help and a bad
// flag come back as errors Main turns into the usage (exit 0) and one line
// (exit 2).
func Parse(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard) // the flag package would print the whole usage on any error
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return helpRequest{fs}
			}
			return &usageError{msg: err.Error(), badFlag: true}
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
	return fs.Parse(append([]string{"--"}, positional...))
}

// helpRequest is --help: the command's flags, to print its usage from.
type helpRequest struct{ fs *flag.FlagSet }

func (h helpRequest) Error() string { return "help requested" }

// usageError is a bad command line: one line, exit 2. After a bad flag Main
// adds where the command's usage is.
type usageError struct {
	msg     string
	badFlag bool
}

func (e *usageError) Error() string { return e.msg }

// withFlags is the commands with their flag sets, taken from each command
// itself (asked for --help), so usage, completion and the man page list the
// flags the commands really parse.
func (a *App) withFlags() []Command {
	var out []Command
	for _, c := range a.Commands {
		var help helpRequest
		if err := c.Run([]string{"--help"}, io.Discard, io.Discard); !errors.As(err, &help) {
			panic(fmt.Sprintf("command %q does not answer --help: %v", c.Name, err))
		}
		c.Flags = help.fs
		out = append(out, c)
	}
	return out
}

// RunCompletion is the completion command: a bash or zsh script for every
// command's flags.
func (a *App) RunCompletion(args []string, stdout, _ io.Writer) error {
	fs, err := parseBuiltin("completion", args, 1, fmt.Sprintf("completion needs a shell: %s completion bash|zsh", a.Prog))
	if err != nil {
		return err
	}
	switch fs.Arg(0) {
	case "bash":
		Bash(stdout, a.Prog, a.withFlags())
	case "zsh":
		zsh(stdout, a.Prog, a.withFlags())
	default:
		return &usageError{msg: fmt.Sprintf("completion: unknown shell %q (bash or zsh)", fs.Arg(0))}
	}
	return nil
}

// RunMan is the man command: the man page in roff, dated today.
func (a *App) RunMan(args []string, stdout, _ io.Writer) error {
	if _, err := parseBuiltin("man", args, 0, fmt.Sprintf("man takes no arguments: %s man > %s.1", a.Prog, a.Prog)); err != nil {
		return err
	}
	p := a.Man
	p.Prog, p.Version, p.Date = a.Prog, a.Version, time.Now().UTC().Format("2006-01-02")
	man(stdout, p, a.withFlags())
	return nil
}

// parseBuiltin parses the arguments of completion or man, which take want
// arguments besides --help; hint is the one line for any other number.
func parseBuiltin(name string, args []string, want int, hint string) (*flag.FlagSet, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	if err := Parse(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() != want {
		return nil, &usageError{msg: hint}
	}
	return fs, nil
}

// ExitStatus is a command's answer told by its exit status alone (check's
// "blind to something its rules need"): Main prints nothing more.
type ExitStatus int

func (e ExitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }
