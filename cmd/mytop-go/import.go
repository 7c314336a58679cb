package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mytop-go/mytop-go/pipeline"
	"github.com/mytop-go/mytop-go/recording"
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
	start := time.Now()
	if err := writeRecording(src, *out, *redact); err != nil {
		return err
	}
	info, err := os.Stat(*out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "mytop-go: wrote %s: %s in %s\n", *out, humanBytes(info.Size()), time.Since(start).Round(time.Millisecond))
	return nil
}

// writeRecording stores every frame of src, with its findings, in a new
// recording at path; on failure nothing is left behind.
func writeRecording(src *source, path string, redact bool) error {
	w, err := recording.Create(path, recording.WriterOptions{Redact: redact, Version: version})
	if err != nil {
		return err
	}
	err = pipeline.Run(context.Background(), src.frames(time.Time{}, time.Time{}), newBuilder(src.mode), w.Write)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}
