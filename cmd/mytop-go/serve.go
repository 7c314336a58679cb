package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"

	"github.com/mytop-go/mytop-go/collectors"
	"github.com/mytop-go/mytop-go/exporter"
	"github.com/mytop-go/mytop-go/fleet"
	"github.com/mytop-go/mytop-go/internal/cli"
	"github.com/mytop-go/mytop-go/internal/selfstat"
	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/snapshot"
)

func runServe(args []string, stdout, stderr io.Writer) error {
	selfstat.TuneGC()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	lf := collectors.AddLiveFlags(fs)
	listen := fs.String("listen", "127.0.0.1:9104", "address of the /metrics endpoint")
	recordDir := fs.String("record", "", "also record, one file per server and day in this directory")
	keep := fs.Duration("keep-around", 0, "with --record: full detail only within this long of a finding at warning or above")
	redact := fs.Bool("redact", false, "with --record: replace literals in query text with ?")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if *keep < 0 || (*keep > 0 && *recordDir == "") {
		return fmt.Errorf("--keep-around needs --record DIR and a positive duration")
	}
	members, err := fleet.Open(lf, liveBuilder, stderr)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fleet.Close(members)
		return fmt.Errorf("--listen: %v", err)
	}
	ctx, cancel := signalContext()
	defer cancel()
	fmt.Fprintf(stderr, "mytop-go: serving /metrics on http://%s for %d server(s)\n", ln.Addr(), len(members))
	return exporter.New().Serve(ln, func(observe func(string, *snapshot.Frame)) error {
		if *recordDir == "" {
			return fleet.Run(ctx, members, observe)
		}
		files := &recording.ServerFiles{Dir: *recordDir, KeepAround: *keep,
			Opts: recording.WriterOptions{Redact: *redact, Interval: lf.Interval, Version: version}}
		keeper, trackers := keptBaselines(*recordDir, members, stderr)
		err := fleet.Run(ctx, members, keeper.Tee(trackers, files.Tee(observe, stderr), stderr))
		return errors.Join(err, files.Close(), keeper.SaveAll(trackers))
	})
}
