package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/mytop-go/mytop-go/collectors"
	"github.com/mytop-go/mytop-go/exporter"
	"github.com/mytop-go/mytop-go/fleet"
	"github.com/mytop-go/mytop-go/internal/cli"
	"github.com/mytop-go/mytop-go/recording"
	"github.com/mytop-go/mytop-go/snapshot"
)

func runServe(args []string, stdout, stderr io.Writer) error {
	tuneGC()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
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
	exp := exporter.New()
	srv := exp.Server()
	go srv.Serve(ln)
	fmt.Fprintf(stderr, "mytop-go: serving /metrics on http://%s for %d server(s)\n", ln.Addr(), len(members))
	var files *recording.ServerFiles
	if *recordDir != "" {
		files = &recording.ServerFiles{Dir: *recordDir, KeepAround: *keep,
			Opts: recording.WriterOptions{Redact: *redact, Interval: lf.Interval, Version: version}}
	}
	err = fleet.Run(ctx, members, observer(exp, files, stderr))
	if files != nil {
		err = errors.Join(err, files.Close())
	}
	shutdown, stop := context.WithTimeout(context.Background(), 2*time.Second)
	defer stop()
	srv.Shutdown(shutdown)
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	return err
}

// observer hands each frame to the exporter and, with --record, to the
// server's file; a failing file is said once per server and never stops the
// metrics.
func observer(exp *exporter.Exporter, files *recording.ServerFiles, stderr io.Writer) func(string, *snapshot.Frame) {
	var mu sync.Mutex
	failed := map[string]bool{}
	return func(server string, f *snapshot.Frame) {
		exp.Observe(server, f)
		if files == nil {
			return
		}
		err := files.Write(server, f)
		mu.Lock()
		defer mu.Unlock()
		if err != nil && !failed[server] {
			fmt.Fprintf(stderr, "mytop-go: %s: recording stopped: %v\n", server, err)
		}
		failed[server] = err != nil
	}
}
