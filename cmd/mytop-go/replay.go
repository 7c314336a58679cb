package main

import (
	"flag"
	"fmt"
	"io"
)

func runReplay(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	return fmt.Errorf("replay: not wired yet")
}
