package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mytop-go/mytop-go/internal/cli"
	"github.com/mytop-go/mytop-go/recording"
)

func runImport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	sf := recording.AddSourceFlags(fs)
	out := fs.String("o", "", "recording file to create")
	redact := fs.Bool("redact", false, "replace literals in query text with ?")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("import needs -o FILE")
	}
	src, err := sf.Open(stderr)
	if err != nil {
		return err
	}
	defer src.Close()
	start := time.Now()
	if err := src.Record(*out, recording.WriterOptions{Redact: *redact, Version: version}, newBuilder(src.Mode)); err != nil {
		return err
	}
	info, err := os.Stat(*out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "mytop-go: wrote %s: %s in %s\n", *out, recording.HumanBytes(info.Size()), time.Since(start).Round(time.Millisecond))
	return nil
}
