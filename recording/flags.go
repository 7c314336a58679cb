package recording

import (
	"flag"
	"fmt"
	"io"
)

// SourceFlags are the SOURCE argument of a command (report, import, replay,
// snapshot) and what its flags say about it (--session, --start).
type SourceFlags struct {
	fs   *flag.FlagSet
	opts SourceOptions
}

// AddSourceFlags registers --session and --start on fs.
func AddSourceFlags(fs *flag.FlagSet) *SourceFlags {
	sf := &SourceFlags{fs: fs}
	fs.StringVar(&sf.opts.Session, "session", "", "which collection of a multi-session capture (pt-stalk prefix)")
	fs.StringVar(&sf.opts.Start, "start", "", "time of the first sample, for captures without a clock (mysqladmin)")
	return sf
}

// Open opens the one SOURCE argument left once fs is parsed.
func (sf *SourceFlags) Open(stderr io.Writer) (*Source, error) {
	if sf.fs.NArg() != 1 {
		return nil, fmt.Errorf("%s needs exactly one SOURCE (a recording or a capture file or directory)", sf.fs.Name())
	}
	return OpenSource(sf.fs.Arg(0), sf.opts, stderr)
}
