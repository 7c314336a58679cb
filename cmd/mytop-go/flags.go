package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/mytop-go/mytop-go/internal/connopt"
)

// parseFlags parses mysql-client style arguments; flags may follow the
// positional SOURCE argument, as users type them.
// --help returns a helpRequest (realMain prints the usage on stdout, exit 0);
// a bad flag is one line and exit 2.
func parseFlags(fs *flag.FlagSet, args []string) error {
	args = connopt.NormalizeArgs(args)
	fs.SetOutput(io.Discard) // the flag package would print the whole usage on any error
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return helpRequest{fs}
			}
			return usageError(fmt.Sprintf("%v (see 'mytop-go %s--help')", err, commandPrefix(fs)))
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

// usageError is a bad command line: one line, exit 2.
type usageError string

func (e usageError) Error() string        { return string(e) }
func (e usageError) Is(target error) bool { return target == errUsage }

// commandPrefix is "record " for record's flags, "" for the dashboard's.
func commandPrefix(fs *flag.FlagSet) string {
	if fs.Name() == "mytop-go" {
		return ""
	}
	return fs.Name() + " "
}
