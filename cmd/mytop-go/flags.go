package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/mytop-go/mytop-go/internal/connopt"
)

// parseFlags parses mysql-client style arguments; flags may follow the
// positional SOURCE argument, as users type them.
func parseFlags(fs *flag.FlagSet, args []string) error {
	args = connopt.NormalizeArgs(args)
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return errUsage
			}
			return fmt.Errorf("%v (see mytop-go %s --help)", err, fs.Name())
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
