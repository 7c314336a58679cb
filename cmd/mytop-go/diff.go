package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/mytop-go/mytop-go/changes"
	"github.com/mytop-go/mytop-go/internal/cli"
	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/report"
	"github.com/mytop-go/mytop-go/snapshot"
)

// diffReport is diff's JSON: the two windows and what moved.
type diffReport struct {
	Baseline report.Period    `json:"baseline"`
	Incident report.Period    `json:"incident"`
	Changes  []changes.Change `json:"changes"`
	// Onsets are what changed against the server's own normal within the
	// incident source, as its frames carry them (ranked causes, onset times).
	Onsets []snapshot.Onset `json:"onsets"`
}

func runDiff(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	format := fs.String("format", "text", "text or json")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return fmt.Errorf("diff needs two SOURCEs: the healthy one, then the incident")
	}
	if *format != "text" && *format != "json" {
		return fmt.Errorf("unknown --format %q (text or json)", *format)
	}
	var ws [2]*changes.Window
	var ps [2]report.Period
	for i := range 2 {
		src, err := recording.OpenSource(fs.Arg(i), recording.SourceOptions{}, stderr)
		if err != nil {
			return err
		}
		ws[i], ps[i], err = windowOf(src, time.Time{}, time.Time{})
		src.Close()
		if err != nil {
			return err
		}
	}
	d := diffReport{Baseline: ps[0], Incident: ps[1], Changes: changes.Compare(ws[0], ws[1]), Onsets: ws[1].Onsets()}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(d)
	}
	fmt.Fprintf(stdout, "healthy:  %s (%d frames)\nincident: %s (%d frames)\n\n", d.Baseline.Source, d.Baseline.Frames, d.Incident.Source, d.Incident.Frames)
	if len(d.Onsets) > 0 {
		fmt.Fprintln(stdout, "What changed against its own normal, in the incident:")
		if err := changes.WriteOnsets(stdout, d.Onsets); err != nil {
			return err
		}
		fmt.Fprintln(stdout)
	}
	return changes.WriteText(stdout, d.Changes, 0)
}
