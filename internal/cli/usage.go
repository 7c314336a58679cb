package cli

import (
	"fmt"
	"io"
	"strings"
)

// Usage prints "Usage: prog SYNOPSIS", the summary and an Options list with
// the descriptions in one column, as GNU tools lay them out.
func Usage(w io.Writer, prog string, c Command) {
	fmt.Fprintf(w, "Usage: %s %s\n", prog, strings.TrimSpace(c.Usage))
	if c.Summary != "" {
		fmt.Fprintf(w, "\n%s\n", c.Summary)
	}
	options(w, "Options:", c)
}

// overview is the program's --help: how to call it, its commands, and the
// options of the default command (the live dashboard).
func overview(w io.Writer, prog string, cmds []Command) {
	fmt.Fprintf(w, "Usage: %s [OPTIONS]\n       %s COMMAND [OPTIONS]\n", prog, prog)
	var def Command
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range cmds {
		if c.Name == "" {
			def = c
			continue
		}
		fmt.Fprintf(w, "  %-12s %s\n", c.Name, c.Summary)
	}
	if def.Summary != "" {
		fmt.Fprintf(w, "\nWithout a command: %s.\n", strings.TrimSuffix(def.Summary, "."))
	}
	options(w, "Options:", def)
	fmt.Fprintf(w, "\nRun '%s COMMAND --help' for a command's options.\n", prog)
}

func options(w io.Writer, title string, c Command) {
	flags := flags(c.Flags)
	width := len("--help")
	for _, f := range flags {
		width = max(width, len(f.spelling()))
	}
	width = min(width, 30)
	fmt.Fprintf(w, "\n%s\n", title)
	for _, f := range append(flags, Flag{Name: "help", Help: "show this help and exit"}) {
		sp := f.spelling()
		if len(sp) > width {
			fmt.Fprintf(w, "  %s\n  %-*s  %s\n", sp, width, "", f.helpWithDefault())
			continue
		}
		fmt.Fprintf(w, "  %-*s  %s\n", width, sp, f.helpWithDefault())
	}
}
