package cli

import (
	"fmt"
	"io"
	"strings"
)

// ManPage is what the man page says besides the commands and their flags.
type ManPage struct {
	Prog, Version, Date, Title string
	Description                string
	// Sections are extra sections in order: name, then paragraphs.
	Sections []ManSection
}

// ManSection is one more section of the page (FILES, ENVIRONMENT...).
type ManSection struct {
	Name  string
	Items [][2]string // term, text; an empty term is a plain paragraph
}

// man writes the page in man(7) roff.
func man(w io.Writer, p ManPage, cmds []Command) {
	fmt.Fprintf(w, ".TH %s 1 %q %q %q\n", strings.ToUpper(p.Prog), p.Date, p.Prog+" "+p.Version, "User Commands")
	fmt.Fprintf(w, ".SH NAME\n%s \\- %s\n", roff(p.Prog), roff(p.Title))
	fmt.Fprintln(w, ".SH SYNOPSIS")
	for _, c := range cmds {
		fmt.Fprintf(w, ".B %s\n%s\n.br\n", roff(p.Prog), roff(c.Usage))
	}
	fmt.Fprintf(w, ".SH DESCRIPTION\n%s\n", roff(p.Description))
	fmt.Fprintln(w, ".SH COMMANDS")
	for _, c := range cmds {
		name := c.Name
		if name == "" {
			name = "(no command)"
		}
		fmt.Fprintf(w, ".SS %s\n%s\n", roff(name), roff(c.Summary))
		for _, f := range flags(c.Flags) {
			fmt.Fprintf(w, ".TP\n.B %s\n%s\n", roff(f.spelling()), roff(f.helpWithDefault()))
		}
		fmt.Fprintf(w, ".TP\n.B \\-\\-help\nshow this command's usage and exit\n")
	}
	for _, s := range p.Sections {
		fmt.Fprintf(w, ".SH %s\n", roff(s.Name))
		for _, it := range s.Items {
			if it[0] == "" {
				fmt.Fprintf(w, ".PP\n%s\n", roff(it[1]))
				continue
			}
			fmt.Fprintf(w, ".TP\n.B %s\n%s\n", roff(it[0]), roff(it[1]))
		}
	}
}

// roff escapes text for a roff line: backslashes, dashes, and a leading
// dot or quote that would read as a request.
func roff(s string) string {
	s = strings.NewReplacer(`\`, `\e`, "-", `\-`, "\n", " ").Replace(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
