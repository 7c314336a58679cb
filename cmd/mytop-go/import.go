package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/snapshot"
)

func runImport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addSourceFlags(fs)
	out := fs.String("o", "", "recording file to create")
	redact := fs.Bool("redact", false, "replace literals in query text with ?")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("import needs -o FILE")
	}
	src, err := openArg(fs, *sf, stderr)
	if err != nil {
		return err
	}
	defer src.Close()
	w, err := recording.Create(*out, recording.WriterOptions{Redact: *redact, Version: version})
	if err != nil {
		return err
	}
	n := 0
	start := time.Now()
	err = pipeline.Run(context.Background(), src.frames(time.Time{}, time.Time{}), newBuilder(src.mode), func(f *snapshot.Frame) error {
		n++
		return w.Write(f)
	})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "mytop-go: wrote %s: %d frames, %s in %s\n", *out, n, humanBytes(w.Size()), time.Since(start).Round(time.Millisecond))
	return nil
}
