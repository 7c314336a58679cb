package cli

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Command is one subcommand (Name "" is the program's default command).
type Command struct {
	Name    string
	Usage   string // synopsis after the program name, e.g. "replay SOURCE [--at TIME]"
	Summary string // one line: what it does
	Flags   *flag.FlagSet
	// Run is the command's body, given the arguments after its name. It
	// parses them with Parse, so --help and a bad flag reach App.Main.
	Run func(args []string, stdout, stderr io.Writer) error
}

// shortNames are the one-letter spellings the mysql client accepts for some
// long options (connopt.NormalizeArgs turns them into the long ones).
var shortNames = map[string]string{"host": "h", "port": "P", "user": "u", "socket": "S", "database": "D", "password": "p"}

// Flag is one option as shown to the user.
type Flag struct {
	Name, Short, Arg, Help, Default string
}

// flags lists fs's options sorted by name, each with the word its value is
// (from `backquotes` in the help, or the value's type) and its default.
func flags(fs *flag.FlagSet) []Flag {
	if fs == nil {
		return nil
	}
	var out []Flag
	fs.VisitAll(func(f *flag.Flag) {
		arg, help := flag.UnquoteUsage(f)
		if arg == "value" && f.Name == "password" {
			arg = "PASSWORD"
		}
		def := f.DefValue
		switch def {
		case "", "0", "false", "0s":
			def = ""
		}
		short := shortNames[f.Name]
		help = strings.TrimSuffix(help, " (-"+short+")") // the spelling shows it
		if arg == "string" && strings.Contains(help, "file") {
			arg = "file"
		}
		out = append(out, Flag{Name: f.Name, Short: short, Arg: strings.ToUpper(arg), Help: help, Default: def})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// spelling is "-h, --host HOST" or "--redact".
func (f Flag) spelling() string {
	s := "--" + f.Name
	if f.Short != "" {
		s = "-" + f.Short + ", " + s
	}
	if f.Arg != "" {
		s += " " + f.Arg
	}
	return s
}

func (f Flag) helpWithDefault() string {
	if f.Default == "" {
		return f.Help
	}
	return fmt.Sprintf("%s (default %s)", f.Help, f.Default)
}
