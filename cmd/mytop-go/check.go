package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/mytop-go/mytop-go/collectors"
	"github.com/mytop-go/mytop-go/internal/cli"
	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/visibility"
)

// checkBlind is check's exit status when a rule cannot run for want of a
// grant, a setting or the server's host.
const checkBlind = 3

// checkFrames is how many ticks check samples: enough for every rule to
// have a previous sample and say whether it can run.
const checkFrames = 3

func runCheck(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	lf := collectors.AddLiveFlags(fs)
	format := fs.String("format", "text", "text or json")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if *format != "text" && *format != "json" {
		return fmt.Errorf("unknown --format %q (text or json)", *format)
	}
	lf.Interval = min(lf.Interval, 500*time.Millisecond)
	cfg, _, err := lf.Conn.Config(stderr)
	if err != nil {
		return err
	}
	account, probed, err := probeAccount(cfg)
	if err != nil {
		return err
	}
	frames, err := sampleFrames(lf, stderr)
	if err != nil {
		return err
	}
	r := visibility.Build(frames, account, probed)
	if err := writeCheck(stdout, r, *format); err != nil {
		return err
	}
	if r.BlindToRules() {
		return cli.ExitStatus(checkBlind)
	}
	return nil
}

func probeAccount(cfg *mysql.Config) (visibility.Account, []visibility.Spot, error) {
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return visibility.Account{}, nil, err
	}
	db := sql.OpenDB(conn)
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return visibility.Probe(ctx, db)
}

// sampleFrames runs the real collectors and engine for a few ticks.
func sampleFrames(lf *collectors.LiveFlags, stderr io.Writer) ([]*snapshot.Frame, error) {
	live, err := lf.Open(stderr)
	if err != nil {
		return nil, err
	}
	defer live.Close()
	b := liveBuilder()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var frames []*snapshot.Frame
	for len(frames) < checkFrames {
		s, err := live.Next(ctx)
		if err != nil {
			return nil, err
		}
		frames = append(frames, b.Add(s))
	}
	return frames, nil
}

func writeCheck(w io.Writer, r visibility.Report, format string) error {
	if format == "text" {
		return r.WriteText(w)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
