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

// checkFrames is how many ticks check samples at least: enough for every
// rule to have a previous sample and say whether it can run. It samples on
// until every source has answered once (read, or said why it cannot be),
// within checkBudget: on a loaded server a tick can run out of time before
// its periodic sources, and a source never tried is neither seen nor blind.
const (
	checkFrames = 3
	checkBudget = 30 * time.Second
)

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
	ctx, cancel := context.WithTimeout(context.Background(), checkBudget)
	defer cancel()
	var frames []*snapshot.Frame
	for len(frames) < checkFrames || !everySourceAnswered(frames) {
		s, err := live.Next(ctx)
		if err != nil {
			if len(frames) >= checkFrames && ctx.Err() != nil {
				return frames, nil // what answered within the budget
			}
			return nil, err
		}
		frames = append(frames, b.Add(s))
	}
	return frames, nil
}

// everySourceAnswered: each collector named in any frame was read without
// error, or said why it cannot run, in at least one of them.
func everySourceAnswered(frames []*snapshot.Frame) bool {
	answered := map[snapshot.CollectorName]bool{}
	for _, f := range frames {
		for name, st := range f.Snapshot.Collectors {
			if _, seen := answered[name]; !seen {
				answered[name] = false
			}
			if st.Unavailable != "" || st.Error == "" && !st.Stale {
				answered[name] = true
			}
		}
	}
	for _, ok := range answered {
		if !ok {
			return false
		}
	}
	return true
}

func writeCheck(w io.Writer, r visibility.Report, format string) error {
	if format == "text" {
		return r.WriteText(w)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
